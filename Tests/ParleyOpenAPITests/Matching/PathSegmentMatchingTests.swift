import ParleyOpenAPI
import Testing

/// How a request path's segments meet the templates: as written (nothing percent-decoded), empty
/// segments skipped, the most specific template first, backtracking when a literal leads nowhere.
@Suite struct PathSegmentMatchingTests {
    let document: OpenAPIDocument

    init() throws {
        let folder = try temporaryFolder(["openapi.yaml": """
            openapi: 3.1.0
            info: {title: Segments, version: "1"}
            servers: [{url: "https://api.example.com/api/v1"}]
            paths:
              /books/mine:
                get: {operationId: myBooks, responses: {"200": {description: ok}}}
              /books/{id}:
                get: {operationId: getBook, responses: {"200": {description: ok}}}
              /books/{id}/notes/{note}:
                get: {operationId: getNote, responses: {"200": {description: ok}}}
              /books/mine/shelf:
                get: {operationId: myShelf, responses: {"200": {description: ok}}}
              /files/{name}.{ext}:
                get: {operationId: getFile, responses: {"200": {description: ok}}}
              /files/v{version}:
                get: {operationId: getVersion, responses: {"200": {description: ok}}}
              /cafés/{id}:
                get: {operationId: getCafe, responses: {"200": {description: ok}}}
            """])
        document = try OpenAPIDocument(contentsOf: folder + "/openapi.yaml", registry: testRegistry)
    }

    func name(_ path: String) -> String? { document.operation(method: "GET", path: path)?.operation?.name }

    @Test func percentEncodedSegmentsAreNeitherDecodedNorSplit() throws {
        // `%6F` is `o`, but a literal matches its text as written, so this is a book id.
        let escaped = try #require(document.operation(method: "GET", path: "/api/v1/books/mi%6Ee"))
        #expect(escaped.operation?.name == "getBook")
        #expect(escaped.pathParameters == ["id": "mi%6Ee"])
        // An escaped slash stays inside its segment.
        #expect(document.operation(method: "GET", path: "/api/v1/books/a%2Fb")?.pathParameters == ["id": "a%2Fb"])
        #expect(name("/api/v1/b%6Foks/mine") == nil)
        #expect(name("/api%2Fv1/books/mine") == nil)
    }

    @Test func emptySegmentsAreSkipped() throws {
        #expect(name("/api/v1/books/mine/") == "myBooks")
        #expect(name("//api//v1///books/mine") == "myBooks")
        #expect(name("api/v1/books/7") == "getBook")
        #expect(name("/api/v1/books/") == nil)
        #expect(name("/api/v1/") == nil)
        #expect(name("") == nil)
        #expect(name("/") == nil)
    }

    @Test func theMostSpecificTemplateWinsAndALiteralThatLeadsNowhereGivesWay() throws {
        #expect(name("/api/v1/books/mine/shelf") == "myShelf")
        // `mine` is a literal child, but `/books/mine/notes/{note}` is no template: `mine` is an id.
        let note = try #require(document.operation(method: "GET", path: "/api/v1/books/mine/notes/3"))
        #expect(note.operation?.name == "getNote")
        #expect(note.pathParameters == ["id": "mine", "note": "3"])
        #expect(name("/api/v1/books/7/notes") == nil)
        #expect(name("/api/v1/books/7/notes/3/extra") == nil)
    }

    @Test func mixedSegmentsCaptureByteRangesAndTryEachSplit() throws {
        let file = try #require(document.operation(method: "GET", path: "/api/v1/files/a.b.c"))
        #expect(file.operation?.name == "getFile")
        #expect(file.pathParameters == ["name": "a", "ext": "b.c"])
        #expect(name("/api/v1/files/.pdf") == nil)
        #expect(name("/api/v1/files/report.") == nil)
        #expect(document.operation(method: "GET", path: "/api/v1/files/v12")?.pathParameters == ["version": "12"])
        #expect(name("/api/v1/files/v") == nil)
    }

    @Test func nonASCIISegmentsMatchByTheirUTF8() throws {
        let cafe = try #require(document.operation(method: "GET", path: "/api/v1/cafés/ñ1"))
        #expect(cafe.operation?.name == "getCafe")
        #expect(cafe.pathParameters == ["id": "ñ1"])
        // The same letter decomposed (e + U+0301) is other bytes: a path is compared as written.
        #expect(name("/api/v1/cafe\u{301}s/1") == nil)
    }

    @Test func pathParametersReachTheParameterChecks() throws {
        let folder = try temporaryFolder(["openapi.yaml": """
            openapi: 3.1.0
            info: {title: Parameters, version: "1"}
            paths:
              /a/{x}/b/{y}:
                get:
                  parameters:
                    - {name: x, in: path, required: true, schema: {type: integer}}
                    - {name: y, in: path, required: true, schema: {type: string, maxLength: 3}}
                  responses: {"200": {description: ok}}
            """])
        let checker = ContractChecker(
            document: try OpenAPIDocument(contentsOf: folder + "/openapi.yaml", registry: testRegistry),
            registry: testRegistry)
        let ok = checker.check(request: ContractRequest(method: "GET", target: "/a/12/b/%C3%A9"),
                               response: ContractResponse(status: 200))
        #expect(ok.isEmpty)
        let bad = checker.check(request: ContractRequest(method: "GET", target: "/a/x1/b/long"),
                                response: ContractResponse(status: 200))
        #expect(bad.count == 2)
        #expect(bad.allSatisfy { $0.kind == .request })
        #expect(bad.first?.message.contains("path parameter 'x'") == true)
        #expect(bad.last?.message.contains("path parameter 'y'") == true)
    }
}
