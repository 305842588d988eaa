import HTTPTypes
import Parley
import ParleyHTTP
import Testing

/// `ParleyServer`'s replies and problem answers with the `Accept` field given scanned
/// (`AcceptField`) answer exactly as the forms that read the text do.
@Suite struct ScannedAcceptReplyTests {
    struct Pair: Codable { var text: String; var count: Int }

    let server = ParleyServer(registry: Registry(formats: Registry.builtInFormats))
    static let fields: [String?] = [nil, "", " , ", "text/plain", "application/json, text/*;q=0.5",
                                    "application/x-www-form-urlencoded;q=0.9, */*;q=0.1", "*; q=.2",
                                    "image/png", "application/", ", application/, x", "text/plain;q=0"]

    func request(accept: String?) -> HTTPRequest {
        var request = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/")
        if let accept { request.headerFields[.accept] = accept }
        return request
    }

    /// The reply's type, body and fields, or the error's code and message.
    func outcome(_ make: () throws(ParleyError) -> Reply) -> String {
        do {
            let reply = try make()
            return "\(reply.contentType) \(reply.body) \(reply.headerFields)"
        } catch {
            return "\(error.code) \(error.message) \(error.acceptableTypes)"
        }
    }

    @Test(arguments: fields)
    func valueRepliesAgreeWithTheTextForms(field: String?) {
        let accept = AcceptField(field)
        for value: Value in ["hello", .bytes([1, 2]), ["count": 2, "text": "x"]] {
            let text = outcome { () throws(ParleyError) in try server.reply(with: value, accepting: field) }
            #expect(outcome { () throws(ParleyError) in try server.reply(with: value, accepting: accept) } == text)
            let forRequest = outcome { () throws(ParleyError) in
                try server.reply(with: value, for: request(accept: field))
            }
            #expect(outcome { () throws(ParleyError) in
                try server.reply(with: value, for: request(accept: field), accepting: accept)
            } == forRequest)
        }
        let pair = Pair(text: "x", count: 1)
        #expect(outcome { () throws(ParleyError) in try server.reply(encoding: pair, accepting: accept) }
            == outcome { () throws(ParleyError) in try server.reply(encoding: pair, accepting: field) })
    }

    @Test func aMalformedFieldIs400AndOneAcceptingNothingOffered406() throws {
        let malformed = try #require(throws: ParleyError.self) {
            try server.reply(with: "x", accepting: AcceptField("application/"))
        }
        #expect(malformed.code == .invalidRequest)
        #expect(malformed.message.contains("'application/'"))
        let refused = try #require(throws: ParleyError.self) {
            try server.reply(with: "x", accepting: AcceptField("image/png"))
        }
        #expect(refused.code == .notAcceptable)
    }

    @Test func aGivenChoiceFallsBackToATypeTheFieldAcceptsThatHoldsTheValue() throws {
        let accept = AcceptField("text/plain, application/x-www-form-urlencoded;q=0.5")
        let choice = try #require(server.registry.encoder(for: accept))
        #expect(choice.mediaType.essence == "text/plain")
        let reply = try server.reply(with: ["count": 2], as: choice, for: request(accept: accept.fieldValue),
                                     accepting: accept)
        #expect(reply.contentType.essence == "application/x-www-form-urlencoded")
        #expect(String(decoding: reply.body, as: UTF8.self) == "count=2")
        #expect(reply.headerFields[.vary] == "Accept")
    }

    @Test(arguments: fields)
    func problemAnswersAgreeWithTheTextForms(field: String?) {
        let request = request(accept: field)
        let error = ParleyError.notAcceptable(field, available: [.textPlain])
        let text = server.problemAnswer(for: error, to: request)
        let scanned = server.problemAnswer(for: error, to: request, accepting: AcceptField(request.headerFields))
        #expect(scanned.response == text.response)
        #expect(scanned.body == text.body)
    }
}
