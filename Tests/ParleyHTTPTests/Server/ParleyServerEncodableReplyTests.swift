import HTTPTypes
import Parley
import ParleyHTTP
import Testing

/// `ParleyServer.reply(encoding:for:options:)`: an `Encodable` answered for a request, negotiated as a
/// `Value` is.
@Suite struct ParleyServerEncodableReplyTests {
    struct Greeting: Codable, Equatable { var text: String; var count: Int }

    let server = ParleyServer(registry: Registry(formats: Registry.builtInFormats))

    func request(_ fields: [(HTTPField.Name, String)]) -> HTTPRequest {
        var request = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/")
        for (name, value) in fields { request.headerFields.append(HTTPField(name: name, value: value)) }
        return request
    }

    @Test func encodesTheValueInTheAcceptedFormat() throws {
        let reply = try server.reply(encoding: Greeting(text: "hé", count: 2),
                                       for: request([(.accept, "application/x-www-form-urlencoded")]))
        #expect(reply.contentType.essence == "application/x-www-form-urlencoded")
        #expect(String(decoding: reply.body, as: UTF8.self) == "count=2&text=h%C3%A9")
        #expect(reply.headerFields[.vary] == "Accept")
    }

    @Test func negotiatesTheOtherDimensionsFromOptions() throws {
        let reply = try server.reply(encoding: "café",
                for: request([(.accept, "text/plain"), (HTTPField.Name("Accept-Charset")!, "iso-8859-1")]),
                                       options: ReplyOptions(charsets: ["iso-8859-1"]))
        #expect(reply.body == [0x63, 0x61, 0x66, 0xE9])
        #expect(reply.headerFields[.vary] == "Accept, Accept-Charset")
    }

    @Test func anObjectAskedAsPlainTextIs406() throws {
        let error = try #require(throws: ParleyError.self) {
            try server.reply(encoding: Greeting(text: "x", count: 1), for: request([(.accept, "text/plain")]))
        }
        #expect(error.code == .notAcceptable)
        #expect(error.acceptableTypes == ["application/x-www-form-urlencoded"])
    }
}
