import HTTPTypes
import Parley
import ParleyHTTP
import Testing

@Suite struct DefaultHeadersTests {
    @Test func acceptLanguageStepsQDownAndStopsAtSix() {
        #expect(DefaultHeaders.acceptLanguage(["da", "en_GB", "en", "fr", "de", "it", "es"])
                == "da, en-GB;q=0.9, en;q=0.8, fr;q=0.7, de;q=0.6, it;q=0.5")
        #expect(DefaultHeaders.acceptLanguage(["en", "EN", "bad,tag", "fr"]) == "en, fr;q=0.9")
        #expect(DefaultHeaders.acceptLanguage([]) == nil)
    }

    @Test func preferredLanguagesFromPOSIXVariables() {
        #expect(DefaultHeaders.preferredLanguagesFromEnvironment(["LANGUAGE": "fr_CH:de", "LANG": "en_US.UTF-8"])
                == ["fr-CH", "fr", "de"])
        #expect(DefaultHeaders.preferredLanguagesFromEnvironment(["LANG": "pt_BR.UTF-8"]) == ["pt-BR", "pt"])
        #expect(DefaultHeaders.preferredLanguagesFromEnvironment(["LC_ALL": "sr_RS@latin", "LANG": "de_DE"])
                == ["sr-RS", "sr"])
        #expect(DefaultHeaders.preferredLanguagesFromEnvironment(["LANG": "C.UTF-8"]) == ["en"])
        #expect(DefaultHeaders.preferredLanguagesFromEnvironment([:]) == ["en"])
    }

    @Test func userAgentNamesAppAndParley() {
        #expect(DefaultHeaders.userAgent(app: "My App", version: "1.2 (3)")
                == "My-App/1.2--3- Parley/\(DefaultHeaders.parleyVersion)")
        #expect(DefaultHeaders.userAgent() == "Parley/\(DefaultHeaders.parleyVersion)")
    }

    @Test func authorizationHelpers() {
        // RFC 7617 §2's example.
        #expect(DefaultHeaders.basic(username: "Aladdin", password: "open sesame")
                == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        #expect(DefaultHeaders.bearer("mF_9.B5f-4.1JqM") == "Bearer mF_9.B5f-4.1JqM")
    }

    @Test func fieldsFromARegistryAndOverrides() {
        var headers = DefaultHeaders(registry: .builtIn, languages: ["de-CH", "de"],
                                     userAgent: DefaultHeaders.userAgent(app: "T", version: "1"))
        headers.authorization = DefaultHeaders.bearer("abc")
        #expect(headers.fields[.accept]
                == "text/plain, text/*, application/x-www-form-urlencoded;q=0.9, application/octet-stream;q=0.8")
        #expect(headers.fields[.acceptLanguage] == "de-CH, de;q=0.9")
        #expect(headers.fields[.acceptEncoding] == "gzip, deflate")
        #expect(headers.fields[.userAgent] == "T/1 Parley/\(DefaultHeaders.parleyVersion)")
        #expect(headers.fields[.authorization] == "Bearer abc")

        var request: HTTPFields = [.accept: "application/json", .authorization: "Basic eDp5"]
        headers.apply(to: &request)
        #expect(request[.accept] == "application/json")
        #expect(request[.authorization] == "Basic eDp5")
        #expect(request[.acceptLanguage] == "de-CH, de;q=0.9")

        let bare = DefaultHeaders(languages: [], acceptEncoding: nil, userAgent: nil)
        #expect(bare.fields.isEmpty)
    }
}
