import ParleyOpenAPI
import Testing

/// `servers` on a Path Item Object or an Operation Object replace the document's for matching:
/// the operation is found under its own servers' base paths only.
@Suite struct OperationServersTests {
    let document: OpenAPIDocument

    init() throws {
        let folder = try temporaryFolder(["openapi.yaml": """
            openapi: 3.1.0
            info: {title: Servers, version: "1"}
            servers: [{url: "https://api.example.com/v1"}]
            paths:
              /books:
                get: {operationId: listBooks, responses: {"200": {description: ok}}}
              /stats:
                servers: [{url: "https://internal.example.com/internal"}]
                get: {operationId: stats, responses: {"200": {description: ok}}}
              /reports:
                servers: [{url: "/internal"}]
                get: {operationId: readReports, responses: {"200": {description: ok}}}
                post:
                  operationId: uploadReport
                  servers:
                    - url: "https://uploads.example.com/{stage}/uploads"
                      variables: {stage: {default: live, enum: [live, test]}}
                  responses: {"201": {description: created}}
            """])
        document = try OpenAPIDocument(contentsOf: folder + "/openapi.yaml", registry: testRegistry)
    }

    @Test func theDocumentsServersServeOperationsWithoutTheirOwn() {
        #expect(document.operation(method: "GET", path: "/v1/books")?.operation?.name == "listBooks")
        #expect(document.operation(method: "GET", path: "/internal/books") == nil)
    }

    @Test func aPathItemsServersReplaceTheDocuments() {
        #expect(document.operation(method: "GET", path: "/internal/stats")?.operation?.name == "stats")
        #expect(document.operation(method: "GET", path: "/v1/stats") == nil)
    }

    @Test func anOperationsServersReplaceItsPathItems() throws {
        #expect(document.operation(method: "GET", path: "/internal/reports")?.operation?.name == "readReports")
        #expect(document.operation(method: "POST", path: "/live/uploads/reports")?.operation?.name == "uploadReport")
        #expect(document.operation(method: "POST", path: "/test/uploads/reports")?.operation?.name == "uploadReport")
        let postUnderThePathItems = try #require(document.operation(method: "POST", path: "/internal/reports"))
        #expect(postUnderThePathItems.operation == nil)
        #expect(postUnderThePathItems.allowedMethods == ["GET"])
        let getUnderTheOperations = try #require(document.operation(method: "GET", path: "/live/uploads/reports"))
        #expect(getUnderTheOperations.operation == nil)
        #expect(getUnderTheOperations.allowedMethods == ["POST"])
        #expect(document.operation(method: "POST", path: "/v1/reports") == nil)
    }

    @Test func aRequestUnderTheWrongServerIsNoOperation() {
        let checker = ContractChecker(document: document, registry: testRegistry)
        let wrongServer = ContractRequest(method: "GET", target: "https://api.example.com/v1/stats")
        let findings = checker.check(request: wrongServer, response: ContractResponse(status: 200))
        #expect(findings.map(\.kind) == [.noOperation])
        let served = checker.check(request: ContractRequest(method: "GET", target: "/internal/stats"),
                                   response: ContractResponse(status: 200))
        #expect(served.isEmpty)
    }
}
