import HTTPTypes
import Parley
import ParleyCompression
import ParleyHTTP
import ParleyJSON
import ParleyOpenAPI
import Testing

/// The path the server middlewares and the gateway share: a request from its HTTP head, and a
/// response as it goes out, its `Content-Encoding` undone unless its value is already decoded.
@Suite struct HTTPMessageCheckTests {
    let checker: ContractChecker
    let operation: CompiledOperation

    init() throws {
        checker = ContractChecker(document: try bookshop(), registry: testRegistry)
        let head = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/v1/books/7")
        operation = try #require(checker.checkRequest(ContractRequest(head, body: [])).operation)
    }

    static let book = json(#"{"id": 7, "title": "Dune", "isbn": "9780441013593"}"#)
    static let wrongBook = json(#"{"id": 7, "title": "Dune", "isbn": "978"}"#)

    func head(coding: String? = nil) -> HTTPResponse {
        var fields: HTTPFields = [.contentType: "application/json"]
        if let coding { fields[.contentEncoding] = coding }
        return HTTPResponse(status: .ok, headerFields: fields)
    }

    @Test func aRequestHeadKeepsItsQueryAndItsOwnOrGivenFields() {
        let head = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/v1/books?limit=500",
                               headerFields: [.init("X-Trace")!: "zz"])
        let own = checker.checkRequest(ContractRequest(head, body: []))
        #expect(own.operation?.operationID == "listBooks")
        #expect(own.findings.map(\.kind) == [.request, .request])
        #expect(own.findings.contains { $0.message.contains("query parameter 'limit'") })
        #expect(own.findings.contains { $0.message.contains("header parameter 'X-Trace'") })
        let given = checker.checkRequest(ContractRequest(head, headerFields: [:], body: []))
        #expect(given.findings.map(\.kind) == [.request])
        #expect(given.findings.first?.message.contains("query parameter 'limit'") == true)
    }

    @Test(arguments: [ContentCoding.gzip, .brotli])
    func aCodedResponseIsUndoneThenChecked(coding: ContentCoding) {
        let valid = Compressor().compress(Self.book, coding: coding)
        #expect(checker.checkResponse(head(coding: coding.rawValue), body: valid, operation: operation,
                                      method: "GET").isEmpty)
        let invalid = Compressor().compress(Self.wrongBook, coding: coding)
        let findings = checker.checkResponse(head(coding: coding.rawValue), body: invalid, operation: operation,
                                             method: "GET")
        #expect(findings.map(\.kind) == [.body])
        #expect(findings.first?.instancePath == "/isbn")
    }

    @Test func aResponseThatDoesNotUndoIsOneBodyFindingAndOnePastTheBoundIsUnchecked() {
        let gzip = Compressor().compress(Self.book, coding: .gzip)
        let truncated = checker.checkResponse(head(coding: "gzip"), body: Array(gzip.prefix(gzip.count / 2)),
                                              operation: operation, method: "GET")
        #expect(truncated.map(\.kind) == [.body])
        #expect(truncated.first?.message.hasPrefix("the response body of getBook does not read: ") == true)
        let tooLong = checker.checkResponse(head(coding: "gzip"), body: gzip, operation: operation, method: "GET",
                                            maxDecompressedBytes: 8)
        #expect(tooLong.map(\.kind) == [.unchecked])
        #expect(tooLong.first?.message.hasPrefix("the response body of getBook is not checked: ") == true)
        let unknown = checker.checkResponse(head(coding: "compress"), body: Self.book, operation: operation,
                                            method: "GET")
        #expect(unknown.map(\.kind) == [.body])
    }

    @Test func aDecodedValueIsCheckedAsItIsWithoutUndoingTheBody() throws {
        let gzip = Compressor().compress(Self.wrongBook, coding: .gzip)
        let value = try JSONFormat().decode(Self.book)
        #expect(checker.checkResponse(head(coding: "gzip"), body: gzip, decoded: value, operation: operation,
                                      method: "GET").isEmpty)
        let wrong = try JSONFormat().decode(Self.wrongBook)
        let findings = checker.checkResponse(head(coding: "gzip"), body: Array(Self.book), decoded: wrong,
                                             operation: operation, method: "GET")
        #expect(findings.map(\.instancePath) == ["/isbn"])
    }
}
