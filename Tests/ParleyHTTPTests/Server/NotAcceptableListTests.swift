import HTTPTypes
import Parley
import ParleyHTTP
import ParleyJSON
import ParleyXML
import Testing

/// A 406 lists only the registered types whose format can encode the refused value, in the
/// error, its message and the problem document's `acceptable` member: never `text/plain` or
/// `application/octet-stream` for an object.
@Suite struct NotAcceptableListTests {
    struct Book: Codable { var id: Int; var title: String }

    let server = ParleyServer(registry: Registry(formats: [JSONFormat(), XMLFormat()] + Registry.builtInFormats))

    func request(accepting accept: String) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/", headerFields: [.accept: accept])
    }

    /// The error replying with `value` to a request accepting `accept` throws.
    func refusal(_ value: Value, accepting accept: String) throws -> ParleyError {
        try #require(throws: ParleyError.self) { try server.reply(with: value, for: request(accepting: accept)) }
    }

    /// The `acceptable` member of the problem document answering `error`, and its status.
    func problemList(_ error: ParleyError, to request: HTTPRequest) throws -> (status: Int, types: [String]) {
        let (head, body) = server.problemAnswer(for: error, to: request)
        #expect(head.headerFields[.contentType] == "application/problem+json; charset=utf-8")
        // A 406 sends no field listing types: the list is in the problem document only.
        #expect(head.headerFields[.accept] == nil)
        let problem = try JSONFormat().decode(body)
        let types = try #require(problem["acceptable"]?.arrayValue).compactMap(\.stringValue)
        return (Int(head.status.code), types)
    }

    @Test func anObjectNoAcceptableTypeMatchesListsOnlyTheTypesThatCanHoldIt() throws {
        let request = request(accepting: "image/png")
        let error = try refusal(["id": 7, "title": "Dune"], accepting: "image/png")
        #expect(error.code == .notAcceptable)
        #expect(error.acceptableTypes == ["application/json", "application/xml", FormURLEncodedFormat.mediaType])
        #expect(!error.message.contains("text/plain") && !error.message.contains("octet-stream"))
        let problem = try problemList(error, to: request)
        #expect(problem.status == 406)
        #expect(problem.types == ["application/json", "application/xml", "application/x-www-form-urlencoded"])
    }

    @Test func anEncodableAndALocalizedValueListTheSame() throws {
        let request = request(accepting: "image/png")
        let encodable = try #require(throws: ParleyError.self) {
            try server.reply(encoding: Book(id: 7, title: "Dune"), for: request)
        }
        var built = 0
        let localized = try #require(throws: ParleyError.self) {
            try server.reply(for: request, options: ReplyOptions(languages: ["en"])) { _ in
                built += 1
                return ["id": 7, "title": "Dune"]
            }
        }
        #expect(built == 1)
        for error in [encodable, localized] {
            #expect(error.acceptableTypes == ["application/json", "application/xml", FormURLEncodedFormat.mediaType])
        }
    }

    @Test func aListTheFormatsCannotHoldIsNotOfferedAsAForm() throws {
        let request = request(accepting: "image/png")
        let error = try refusal([1, [2, 3]], accepting: "image/png")
        #expect(!error.acceptableTypes.contains(FormURLEncodedFormat.mediaType))
        #expect(!error.acceptableTypes.contains(.textPlain) && error.acceptableTypes.contains("application/json"))
        #expect(try problemList(error, to: request).types == error.acceptableTypes.map(\.description))
    }

    @Test func textIsListedWhereItFits() throws {
        let error = try refusal("hello", accepting: "image/png")
        #expect(error.acceptableTypes.contains(.textPlain) && error.acceptableTypes.contains(.applicationOctetStream))
    }

    @Test func aFallbackRefusalListsTheSameAsAnUnmatchedAccept() throws {
        // text/plain is matched but cannot hold an object: the same list as no match at all.
        let matched = try refusal(["id": 7], accepting: "text/plain")
        #expect(matched.acceptableTypes == (try refusal(["id": 7], accepting: "image/png")).acceptableTypes)
    }

    @Test func aMalformedAcceptIsStill400() throws {
        #expect(try refusal(["id": 7], accepting: "application/").code == .invalidRequest)
    }
}
