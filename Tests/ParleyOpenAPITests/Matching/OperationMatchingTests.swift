import ParleyOpenAPI
import Testing

@Suite struct OperationMatchingTests {
    @Test func aLiteralSegmentWinsOverATemplate() throws {
        let document = try bookshop()
        #expect(document.operation(method: "GET", path: "/v1/books/mine")?.operation?.name == "myBooks")
        let byID = try #require(document.operation(method: "GET", path: "/v1/books/42"))
        #expect(byID.operation?.name == "getBook")
        #expect(byID.pathParameters == ["id": "42"])
        #expect(byID.pathTemplate == "/books/{id}")
    }

    @Test func theServerBasePathIsRequiredAndItsVariablesExpand() throws {
        let document = try bookshop()
        #expect(document.operation(method: "GET", path: "/v2/books")?.operation?.name == "listBooks")
        #expect(document.operation(method: "GET", path: "/books") == nil)
        #expect(document.operation(method: "GET", path: "/v3/books") == nil)
    }

    @Test func headIsCheckedAgainstGet() throws {
        let document = try bookshop()
        #expect(document.operation(method: "HEAD", path: "/v1/books/7")?.operation?.name == "getBook")
        #expect(document.operation(method: "get", path: "/v1/books/7")?.operation?.method == "GET")
    }

    @Test func anUndeclaredMethodMatchesThePathButNoOperation() throws {
        let match = try #require(try bookshop().operation(method: "DELETE", path: "/v1/books/7"))
        #expect(match.operation == nil)
        #expect(match.allowedMethods == ["GET"])
    }

    @Test func mixedTemplateSegmentsCaptureEachParameter() throws {
        let match = try #require(try bookshop().operation(method: "GET", path: "/v1/files/report.final.pdf"))
        #expect(match.operation?.name == "getFile")
        #expect(match.pathParameters == ["name": "report", "ext": "final.pdf"])
        #expect(try bookshop().operation(method: "GET", path: "/v1/files/report") == nil)
    }

    @Test func noOperationIsAFinding() throws {
        let checker = ContractChecker(document: try bookshop(), registry: testRegistry)
        let authors = ContractRequest(method: "GET", target: "https://api.example.com/v1/authors")
        let findings = checker.check(request: authors, response: ContractResponse(status: 200))
        #expect(findings.map(\.kind) == [.noOperation])
        let wrongMethod = checker.check(request: ContractRequest(method: "PUT", target: "/v1/books/1"),
                                        response: ContractResponse(status: 200))
        #expect(wrongMethod.map(\.kind) == [.noOperation])
        #expect(wrongMethod.first?.message.contains("/books/{id}") == true)
    }

    @Test func aURLInTheQueryIsNotTakenForTheTargetsScheme() throws {
        let checker = ContractChecker(document: try bookshop(), registry: testRegistry)
        let request = ContractRequest(method: "GET", target: "/v1/books?limit=5&next=https://example.com/v1/authors")
        #expect(checker.check(request: request, response: bookListResponse()).isEmpty)
        let absolute = ContractRequest(method: "GET", target: "https://api.example.com/v1/books?limit=5#top")
        #expect(checker.check(request: absolute, response: bookListResponse()).isEmpty)
    }

    @Test func aThousandPathsEachFindTheirOwnOperation() throws {
        var paths = ""
        for n in 0..<1000 {
            paths += "  /r\(n)/items/{id}:\n    get: {operationId: op\(n), responses: {'200': {description: ok}}}\n"
            paths += "  /r\(n)/items/latest:\n"
                + "    get: {operationId: latest\(n), responses: {'200': {description: ok}}}\n"
        }
        let header = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n"
        let folder = try temporaryFolder(["big.yaml": header + paths])
        let document = try OpenAPIDocument(contentsOf: folder + "/big.yaml", registry: testRegistry)
        #expect(document.operations.count == 2000)
        for n in [0, 499, 999] {
            #expect(document.operation(method: "GET", path: "/r\(n)/items/9")?.operation?.name == "op\(n)")
            #expect(document.operation(method: "GET", path: "/r\(n)/items/latest")?.operation?.name == "latest\(n)")
        }
    }
}
