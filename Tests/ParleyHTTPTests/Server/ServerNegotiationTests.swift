import HTTPTypes
import Parley
import ParleyHTTP
import Testing

@Suite struct ServerNegotiationTests {
    let registry = Registry.builtIn

    @Test func replyUsesTheAcceptedFormatWithCharsetAndVary() throws {
        let reply = try ParleyServer(registry: registry).reply(with: "hello",
                                                               accepting: "application/json;q=0.9, text/*")
        #expect(reply.contentType.description == "text/plain; charset=utf-8")
        #expect(reply.body == Array("hello".utf8))
        #expect(reply.headerFields[.vary] == "Accept")
        #expect(reply.headerFields[.contentType] == "text/plain; charset=utf-8")
        #expect(reply.response().status == .ok)
    }

    @Test func binaryFormatsGetNoCharset() throws {
        let reply = try ParleyServer(registry: registry).reply(with: .bytes([1, 2, 3]),
                                                               accepting: "application/octet-stream")
        #expect(reply.contentType.description == "application/octet-stream")
        #expect(reply.body == [1, 2, 3])
    }

    @Test func nothingAcceptableIs406ListingWhatCanEncodeTheValue() {
        do {
            _ = try ParleyServer(registry: registry).reply(with: "x", accepting: "application/json, image/*")
            Issue.record("expected 406")
        } catch {
            #expect(error.code == .notAcceptable)
            #expect(error.impliedStatus == .notAcceptable)
            // A string is no form: text/plain and raw bytes can hold it, form-urlencoded cannot.
            #expect(error.acceptableTypes == [.textPlain, .applicationOctetStream])
            #expect(error.message.contains("text/plain"))
        }
    }

    @Test func readsEveryAcceptFieldOfARequest() throws {
        var request = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/")
        request.headerFields.append(HTTPField(name: .accept, value: "image/png"))
        request.headerFields.append(HTTPField(name: .accept, value: "application/octet-stream;q=0.5"))
        #expect(try ParleyServer(registry: registry).reply(with: .bytes([0]), for: request).formatName == "raw")
    }

    @Test func aValueTheAcceptableFormatsCannotEncodeIs406ListingTheTypesThatCan() throws {
        for accept in ["text/plain", "text/*", "application/octet-stream"] {
            let error = try #require(throws: ParleyError.self) {
                try ParleyServer(registry: registry).reply(with: ["a": 1], accepting: accept)
            }
            #expect(error.code == .notAcceptable)
            #expect(error.impliedStatus == .notAcceptable)
            #expect(error.acceptableTypes == [FormURLEncodedFormat.mediaType])
        }
        // An acceptable type that can encode it is chosen over the preferred one that cannot.
        let reply = try ParleyServer(registry: registry).reply(with: ["a": 1],
                                                               accepting: "text/plain, application/*;q=0.5")
        #expect(reply.formatName == FormURLEncodedFormat().name)
    }

    @Test func requestBodiesDecodeByContentTypeOr415() throws {
        var request = HTTPRequest(method: .post, scheme: "https", authority: "example.com", path: "/")
        request.headerFields[.contentType] = "text/plain; charset=utf-8"
        #expect(try ParleyServer(registry: registry).decodeValue(Array("hi".utf8), of: request) == "hi")

        request.headerFields[.contentType] = "application/json"
        do {
            _ = try ParleyServer(registry: registry).decodeValue(Array("{}".utf8), of: request)
            Issue.record("expected 415")
        } catch {
            #expect(error.code == .unsupportedMediaType)
            #expect(error.impliedStatus == .unsupportedMediaType)
            #expect(error.body == Array("{}".utf8))
        }
        #expect(ParleyServer(registry: registry).unsupportedMediaTypeFields[.accept]
                == "text/plain, text/*, application/x-www-form-urlencoded;q=0.9, application/octet-stream;q=0.8")

        request.headerFields[.contentType] = nil
        #expect(try ParleyServer(registry: registry).decodeValue([], of: request) == .null)
        #expect(throws: ParleyError.self) { try ParleyServer(registry: registry).decodeValue([1], of: request) }
    }
}
