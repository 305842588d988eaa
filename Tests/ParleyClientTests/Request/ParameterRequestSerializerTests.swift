import FoundationEssentials
import HTTPTypes
import Parley
import ParleyHTTP
import ParleyClient
import Testing

@Suite struct ParameterRequestSerializerTests {
    let serializer = ParameterRequestSerializer(registry: .builtIn, bodyEncoding: .form,
                                       defaultHeaders: DefaultHeaders(languages: ["en"], userAgent: "Test/1"))
    let url = URL(string: "https://api.example.com/v1/search")!

    @Test func queryMethodsPutParametersInTheQuery() throws {
        for method in [HTTPRequest.Method.get, .head, .delete] {
            let built = try serializer.makeRequest(method: method, url: url, parameters: ["q": "swift ui", "page": 2])
            #expect(built.request.method == method)
            #expect(built.request.scheme == "https")
            #expect(built.request.authority == "api.example.com")
            #expect(built.request.path == "/v1/search?page=2&q=swift%20ui")
            #expect(built.body == nil)
            #expect(built.request.headerFields[.contentType] == nil)
        }
    }

    @Test func existingQueryPortsAndIPv6HostsAreKept() throws {
        let built = try serializer.makeRequest(
            method: .get, url: URL(string: "http://[::1]:8080/p?a=1")!, parameters: ["b": true])
        #expect(built.request.authority == "[::1]:8080")
        #expect(built.request.path == "/p?a=1&b=true")
        let bare = try serializer.makeRequest(method: .get, url: URL(string: "http://example.com")!, parameters: [:])
        #expect(bare.request.path == "/")
    }

    @Test func otherMethodsPutParametersInAFormBody() throws {
        let built = try serializer.makeRequest(method: .post, url: url, parameters: ["name": "Ada L", "tags": ["x"]])
        guard case .bytes(let body)? = built.body else { Issue.record("expected a body"); return }
        #expect(String(decoding: body, as: UTF8.self) == "name=Ada+L&tags%5B%5D=x")
        #expect(built.request.path == "/v1/search")
        #expect(built.request.headerFields[.contentType] == "application/x-www-form-urlencoded")
        #expect(built.request.headerFields[.contentLength] == "23")
    }

    @Test func defaultHeadersAreAddedAndRequestFieldsWin() throws {
        let built = try serializer.makeRequest(method: .get, url: url, headerFields: [.accept: "application/json"])
        #expect(built.request.headerFields[.accept] == "application/json")
        #expect(built.request.headerFields[.userAgent] == "Test/1")
        #expect(built.request.headerFields[.acceptEncoding] == "gzip, deflate")
        #expect(built.request.headerFields[.acceptLanguage] == "en")
    }

    @Test func bodyOnGetOrHeadIsAnErrorUnlessAllowed() throws {
        var bodyForAll = serializer
        bodyForAll.queryMethods = []
        for method in [HTTPRequest.Method.get, .head] {
            #expect { try bodyForAll.makeRequest(method: method, url: url, parameters: ["a": 1]) } throws: {
                ($0 as? ParleyError)?.code == .invalidRequest
            }
        }
        #expect(throws: ParleyError.self) {
            try serializer.makeRequest(method: .get, url: url, multipart: MultipartFormData())
        }
        bodyForAll.allowsBodyOnGetAndHead = true
        let built = try bodyForAll.makeRequest(method: .get, url: url, parameters: ["a": 1])
        #expect(built.body?.contentLength == 3)
        #expect(try serializer.makeRequest(method: .delete, url: url, parameters: ["a": 1]).body == nil)
    }

    @Test func invalidURLsAreErrors() {
        for text in ["ftp://example.com/file", "/relative/path", "mailto:someone@example.com"] {
            #expect { try serializer.makeRequest(method: .get, url: URL(string: text)!) } throws: {
                ($0 as? ParleyError)?.code == .invalidRequest
            }
        }
    }

    @Test func unencodableParametersAreErrors() {
        #expect { try serializer.makeRequest(method: .get, url: url, parameters: ["x": .float(.nan)]) } throws: {
            ($0 as? ParleyError)?.code == .invalidRequest
        }
        #expect { try serializer.makeRequest(method: .post, url: url, parameters: ["a", "b"]) } throws: {
            ($0 as? ParleyError)?.code == .invalidRequest
        }
        struct Refuses: Encodable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no"))
            }
        }
        #expect { try serializer.makeRequest(method: .get, url: url, encoding: Refuses()) } throws: {
            ($0 as? ParleyError)?.code == .invalidRequest
        }
        // The built-in registry has no JSON encoder, and text cannot hold an object.
        var json = serializer
        json.bodyEncoding = .json
        #expect { try json.makeRequest(method: .post, url: url, parameters: ["a": 1]) } throws: {
            ($0 as? ParleyError)?.message.contains("no registered format encodes application/json") == true
        }
        json.bodyEncoding = .mediaType(.textPlain)
        #expect { try json.makeRequest(method: .post, url: url, parameters: ["a": 1]) } throws: {
            ($0 as? ParleyError)?.format == "text"
        }
    }

    @Test func textualRegistryFormatsGetACharset() throws {
        var text = serializer
        text.bodyEncoding = .mediaType(.textPlain)
        text.queryMethods = []
        text.allowsBodyOnGetAndHead = true
        // Text encodes strings only; an object parameter set is refused, so encode directly.
        let (body, type) = try text.encodeBody("héllo")
        #expect(body == Array("héllo".utf8))
        #expect(type.description == "text/plain; charset=utf-8")
    }

    @Test func multipartBodiesCarryBoundaryAndLength() throws {
        var form = try MultipartFormData(boundary: "b")
        form.append(name: "a", value: "1")
        let built = try serializer.makeRequest(method: .put, url: url, multipart: form)
        #expect(built.request.headerFields[.contentType] == "multipart/form-data; boundary=b")
        #expect(built.request.headerFields[.contentLength] == String(form.contentLength))
        #expect(try built.body?.collect() == form.encodedBytes())
        #expect(throws: FormatError.self) { try built.body?.collect(maxBytes: 10) }
    }

    @Test func encodableParameters() throws {
        struct Filter: Encodable { var city = "Zürich"; var limit = 5 }
        let built = try serializer.makeRequest(method: .get, url: url, encoding: Filter())
        #expect(built.request.path == "/v1/search?city=Z%C3%BCrich&limit=5")
    }
}
