import ParleyCompression
import ParleyHTTP
import ParleyOpenAPI
import Testing

/// A request body in a `Content-Encoding` is undone before it is checked, as a server's pipeline
/// undoes it before decoding.
@Suite struct RequestContentCodingTests {
    let checker: ContractChecker

    init() throws {
        checker = ContractChecker(document: try bookshop(), registry: testRegistry)
    }

    func post(_ body: [UInt8], coding: String) -> [ContractFinding] {
        let request = ContractRequest(method: "POST", target: "/v1/books",
                                      headers: [("Content-Type", "application/json"), ("Content-Encoding", coding)],
                                      body: body)
        let response = ContractResponse(status: 201, headers: [("Content-Type", "application/json")],
                                        body: json(#"{"id": 1, "title": "a", "isbn": "9780441013593"}"#))
        return checker.check(request: request, response: response)
    }

    @Test(arguments: [ContentCoding.gzip, .deflate, .brotli, .zstd])
    func aCodedBodyIsUndoneThenChecked(coding: ContentCoding) {
        let compressor = Compressor()
        let valid = compressor.compress(json(#"{"title": "Dune", "isbn": "9780441013593"}"#), coding: coding)
        #expect(post(valid, coding: coding.rawValue).isEmpty)
        let invalid = compressor.compress(json(#"{"title": "Dune", "isbn": "978"}"#), coding: coding)
        let findings = post(invalid, coding: coding.rawValue)
        #expect(findings.map(\.kind) == [.request])
        #expect(findings.first?.instancePath == "/isbn")
    }

    @Test func codingsAreUndoneLastAppliedFirst() {
        let body = json(#"{"title": "Dune", "isbn": "9780441013593"}"#)
        let twice = Compressor().compress(Compressor().compress(body, coding: .gzip), coding: .zstd)
        #expect(post(twice, coding: "gzip, zstd").isEmpty)
    }

    @Test func corruptCodedDataIsARequestFinding() {
        let gzip = Compressor().compress(json(#"{"title": "Dune", "isbn": "9780441013593"}"#), coding: .gzip)
        let findings = post(Array(gzip.prefix(gzip.count / 2)), coding: "gzip")
        #expect(findings.map(\.kind) == [.request])
        #expect(findings.first?.message.contains("Content-Encoding gzip") == true)
    }

    @Test func aCodingNoStepUndoesIsUnchecked() {
        #expect(post(json(#"{"title": "Dune"}"#), coding: "compress").map(\.kind) == [.unchecked])
        var withoutCodings = checker
        withoutCodings.contentCodingStep = ContentCodingStep(.none)
        let request = ContractRequest(method: "POST", target: "/v1/books",
                                      headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                                      body: Compressor().compress(json(#"{"title": "Dune"}"#), coding: .gzip))
        let findings = withoutCodings.checkRequest(request).findings
        #expect(findings.map(\.kind) == [.unchecked])
    }
}
