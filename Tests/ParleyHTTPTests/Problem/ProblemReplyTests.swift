import HTTPTypes
import Parley
import ParleyHTTP
import Testing

/// A format that writes the value it is given as its debug description, so a test sees which
/// form of a problem reached it; it decodes every body to `decoded`.
struct ProblemStubFormat: Format {
    var name: String
    var mediaType: MediaType
    var decoded: Value = .null
    var decodableMediaTypes: [MediaType] { [mediaType] }
    var encodableMediaTypes: [MediaType] { [mediaType] }
    var isTextual: Bool { true }
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        guard bytes.count > 0 else { throw FormatError(.malformed, format: name, "empty") }
        return decoded
    }
    func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] { Array(String(reflecting: value).utf8) }
}

@Suite struct ProblemReplyTests {
    let registry = Registry(formats: [
        ProblemStubFormat(name: "yaml", mediaType: "application/yaml"),
        ProblemStubFormat(name: "json", mediaType: "application/json"),
        ProblemStubFormat(name: "xml", mediaType: "application/xml"),
    ])
    let problem = ProblemDetails(type: "https://example.com/probs/out-of-credit", title: "Out of credit", status: 403,
                                 extensions: ["accounts": ["/a/1", "/a/2"]])

    @Test(arguments: [
        (nil, "application/problem+json", "json"),
        ("", "application/problem+json", "json"),
        ("*/*", "application/problem+json", "json"),
        ("application/*", "application/problem+json", "json"),
        ("application/json", "application/problem+json", "json"),
        ("application/problem+json", "application/problem+json", "json"),
        ("application/xml", "application/problem+xml", "xml"),
        ("application/problem+xml", "application/problem+xml", "xml"),
        ("application/json;q=0.5, application/xml", "application/problem+xml", "xml"),
        ("application/yaml", "application/yaml", "yaml"),
        ("application/yaml;q=0.2, application/json;q=0.1", "application/yaml", "yaml"),
        ("image/png", "application/problem+json", "json"),
    ] as [(String?, String, String)])
    func negotiatesByAcceptPreferringJSON(accept: String?, type: String, format: String) throws {
        let reply = try ParleyServer(registry: registry).reply(with: problem, accepting: accept)
        #expect(reply.contentType.description == "\(type); charset=utf-8")
        #expect(reply.headerFields[.contentType] == "\(type); charset=utf-8")
        #expect(reply.headerFields[.vary] == "Accept")
        #expect(reply.formatName == format)
        let written = format == "xml" ? problem.xmlValue : problem.value
        #expect(reply.body == Array(String(reflecting: written).utf8))
    }

    @Test func withoutJSONTheXMLFormIsPreferred() throws {
        let xmlOnly = Registry(formats: [ProblemStubFormat(name: "xml", mediaType: "application/xml")])
        #expect(try ParleyServer(registry: xmlOnly).reply(with: problem, accepting: nil).contentType.essence
                == "application/problem+xml")
    }

    @Test func readsEveryAcceptFieldOfARequest() throws {
        var request = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/")
        request.headerFields.append(HTTPField(name: .accept, value: "text/html"))
        request.headerFields.append(HTTPField(name: .accept, value: "application/xml;q=0.9"))
        let reply = try ParleyServer(registry: registry).reply(with: problem, for: request)
        #expect(reply.contentType.essence == "application/problem+xml")
        #expect(reply.response(status: .forbidden).status == .forbidden)
    }

    @Test func aRegistryThatEncodesNothingAnswers406() {
        #expect {
            try ParleyServer(registry: Registry(formats: [])).reply(with: problem, accepting: nil)
        } throws: { ($0 as? ParleyError)?.code == .notAcceptable }
    }

    // MARK: ParleyError.problem(in:contentType:registry:)

    @Test func errorBodiesOfAProblemTypeDecodeToAProblem() throws {
        let json = Registry(formats: [ProblemStubFormat(name: "json", mediaType: "application/json",
                                                        decoded: ["title": "Nope", "status": 409])])
        let body = Array("{…}".utf8)
        #expect(ParleyError.problem(in: body, contentType: "application/problem+json", registry: json)
                == ProblemDetails(title: "Nope", status: 409))
        #expect(ParleyError.problem(in: body, contentType: "Application/Problem+JSON; charset=utf-8",
                                    registry: json)?.status == 409)
    }

    @Test(arguments: [
        ("application/json", "a plain JSON body is not a problem document"),
        ("text/plain", "not a problem type"),
        ("application/problem+yaml", "a problem type no format decodes"),
        ("application/problem+json; charset", "a malformed type"),
    ])
    func otherBodiesAreNotProblems(contentType: String, reason: String) {
        let json = Registry(formats: [ProblemStubFormat(name: "json", mediaType: "application/json",
                                                        decoded: ["title": "Nope"])])
        #expect(ParleyError.problem(in: Array("{}".utf8), contentType: contentType, registry: json) == nil, "\(reason)")
    }

    @Test func undecodableOrNonObjectBodiesAreNotProblems() {
        let json = Registry(formats: [ProblemStubFormat(name: "json", mediaType: "application/json",
                                                        decoded: ["not", "an", "object"])])
        #expect(ParleyError.problem(in: Array("[]".utf8), contentType: "application/problem+json", registry: json)
                == nil)
        #expect(ParleyError.problem(in: [], contentType: "application/problem+json", registry: json) == nil)
        #expect(ParleyError.problem(in: Array("{}".utf8), contentType: nil, registry: json) == nil)
    }

    @Test func anErrorCarriesTheProblemItsDecodedBodyHolds() {
        var error = ParleyError(.unacceptableStatus, "status 403", receivedContentType: "application/problem+json")
        #expect(error.problem == nil)
        error.decodedBody = ProblemDetails(.forbidden).value
        #expect(error.problem?.title == "Forbidden")
        error.receivedContentType = "application/json"
        #expect(error.problem == nil)
    }
}
