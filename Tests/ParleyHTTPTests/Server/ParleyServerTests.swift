import HTTPTypes
import Parley
import ParleyHTTP
import Testing

/// ParleyServer, the one server-side entry point: its rules for malformed fields, its request
/// bodies and its problem answers, checked here rather than only through the integrations.
@Suite struct ParleyServerTests {
    let server = ParleyServer(registry: .builtIn,
                              contentCodings: ContentCodings([ReversingCoding()], encoders: [ReversingCoding()]))

    func request(_ fields: HTTPFields) -> HTTPRequest {
        HTTPRequest(method: .post, scheme: "https", authority: "example.com", path: "/", headerFields: fields)
    }

    @Test(arguments: ["application/", "text/csv;charset=\"utf-8", ", application/, x"])
    func aMalformedAcceptIs400ByEveryReply(_ accept: String) {
        let viaRequest = #expect(throws: ParleyError.self) {
            try server.reply(with: "x", for: request([.accept: accept]))
        }
        let viaField = #expect(throws: ParleyError.self) { try server.reply(with: "x", accepting: accept) }
        let viaEncodable = #expect(throws: ParleyError.self) { try server.reply(encoding: "x", accepting: accept) }
        for error in [viaRequest, viaField, viaEncodable] {
            #expect(error?.code == .invalidRequest)
            #expect(error?.impliedStatus == .badRequest)
        }
    }

    @Test func anAcceptThatOnlyExcludesIs406() {
        let error = #expect(throws: ParleyError.self) { try server.reply(with: "x", accepting: "image/png") }
        #expect(error?.impliedStatus == .notAcceptable)
    }

    @Test func problemsAreNeverRefusedAndAnswer400ForAMalformedAccept() throws {
        let failure = #expect(throws: ParleyError.self) { try server.reply(with: "x", accepting: "application/") }
        let error = try #require(failure)
        let (head, body) = server.problemAnswer(for: error, to: request([.accept: "application/"]))
        #expect(head.status == .badRequest)
        #expect(head.headerFields[.vary] == "Accept")
        #expect(!body.isEmpty)
    }

    @Test func aRequestBodyIsDecodedAfterItsCodingIsUndone() throws {
        let coded = ReversingCoding().encode(Array("hello".utf8))
        let upload = request([.contentType: "text/plain", .contentEncoding: "x-reverse",
                              .contentLength: "\(coded.count)"])
        #expect(try server.decodeValue(coded, of: upload) == "hello")
        let (undone, body) = try server.undoContentCoding(of: upload, body: coded)
        #expect(body == Array("hello".utf8))
        #expect(undone.headerFields[.contentEncoding] == nil)
        #expect(undone.headerFields[.contentLength] == nil)
    }

    @Test func aMalformedContentTypeIs400AndAnUnknownOneIs415WithTheFieldsToRetry() {
        let malformed = #expect(throws: ParleyError.self) {
            try server.decodeValue(Array("x".utf8), of: request([.contentType: "text/"]))
        }
        #expect(malformed?.impliedStatus == .badRequest)
        let unknown = #expect(throws: ParleyError.self) {
            try server.decodeValue(Array("x".utf8), of: request([.contentType: "image/png"]))
        }
        #expect(unknown?.impliedStatus == .unsupportedMediaType)
        let (head, _) = server.problemAnswer(for: unknown!, to: request([:]))
        #expect(head.headerFields[.acceptEncoding] == "x-reverse")
        #expect(head.headerFields[.accept]?.contains("text/plain") == true)
    }

    @Test func anEmptyBodyWithoutContentTypeIsNullOrTheTypesEmptyValue() throws {
        #expect(try server.decodeValue([], of: request([:])) == .null)
        #expect(try server.decode(String?.self, from: [], of: request([:])) == nil)
    }
}
