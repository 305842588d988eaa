import HTTPTypes
import Parley
import ParleyHTTP
import ParleyJSON
import ParleyClient
import Testing

@Suite struct ResponseCodableTests {
    struct User: Codable, Equatable, Sendable {
        var id: Int
        var name: String
    }

    let registry = Registry(formats: [JSONFormat()] + Registry.builtInFormats)

    func response(_ contentType: String) -> HTTPResponse {
        HTTPResponse(status: .ok, headerFields: [.contentType: contentType])
    }

    @Test func decodesWhateverJSONDialectTheServerChose() throws {
        let serializer = DecodableResponseSerializer<User>(registry: registry)
        let body = Array(#"{"id": 7, "name": "Ada", "extra": [1]}"#.utf8)
        #expect(
            try serializer.serialize(response("application/vnd.api+json"), body: body, request: nil)
                == User(id: 7, name: "Ada"))
    }

    @Test func aValueThatDoesNotFitIsADecodingFailureCarryingTheBody() throws {
        let serializer = DecodableResponseSerializer<User>(registry: registry)
        let body = Array(#"{"id": "seven", "name": "Ada"}"#.utf8)
        do {
            _ = try serializer.serialize(response("application/json"), body: body, request: nil)
            Issue.record("expected an error")
        } catch let error as ParleyError {
            #expect(error.code == .decodingFailed)
            #expect(error.body == body)
            #expect(error.message.contains("id"))
        }
    }

    @Test func emptyAnswersDecodeAsNilForOptionals() throws {
        let serializer = DecodableResponseSerializer<User?>(registry: registry)
        #expect(try serializer.serialize(HTTPResponse(status: .noContent), body: [], request: nil) == nil)
    }

    @Test func registryDecodesAndRepliesWithCodableValues() throws {
        let user = try registry.decode(
            User.self, from: Array(#"{"id":1,"name":"B"}"#.utf8), contentType: "application/json")
        #expect(user == User(id: 1, name: "B"))
        let reply = try ParleyServer(registry: registry).reply(encoding: user, accepting: "application/json")
        #expect(reply.contentType.description == "application/json; charset=utf-8")
        #expect(try registry.decode(User.self, from: reply.body, contentType: reply.contentType) == user)
    }
}
