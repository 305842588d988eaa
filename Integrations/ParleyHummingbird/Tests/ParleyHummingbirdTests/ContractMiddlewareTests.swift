import Hummingbird
import HTTPTypes
import Logging
import Parley
import ParleyHTTP
import ParleyHummingbird
import ParleyJSON
import ParleyOpenAPI
import ParleyServerTesting
import ParleyYAML
import Synchronization
import Testing

/// The document the contract middleware checks against: a book by id (a required query
/// parameter too), and adding a book as JSON.
let booksDocument = """
    openapi: 3.1.0
    info: {title: Books, version: "1"}
    paths:
      /books/{id}:
        get:
          operationId: getBook
          parameters:
            - {name: id, in: path, required: true, schema: {type: integer}}
            - {name: fields, in: query, required: true, schema: {type: string}}
          responses:
            "200":
              description: The book.
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Book"}
      /books:
        post:
          operationId: addBook
          requestBody:
            required: true
            content:
              application/json:
                schema: {$ref: "#/components/schemas/Book"}
          responses:
            "201":
              description: Added.
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Book"}
    components:
      schemas:
        Book:
          type: object
          required: [id, title]
          properties:
            id: {type: integer}
            title: {type: string}
    """

/// Log messages at `error` level and above, kept for a test to read.
final class CapturedErrors: LogHandler, @unchecked Sendable {
    let messages = Mutex<[String]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .error

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        messages.withLock { $0.append(event.message.description) }
    }
}

/// `ContractMiddleware` on the real server: requests checked against the document (400 with
/// the violations, negotiated), responses enforced (500) or reported (logged).
@Suite struct ContractMiddlewareTests {
    /// The book routes, behind `ContractMiddleware` when `checked`.
    func router(responses: ContractMode, checked: Bool = true) throws -> Router<ContractContext> {
        let document = try OpenAPIDocument(YAMLFormat().decode(Array(booksDocument.utf8)), uri: "file:///books.yaml",
                                           registry: ContractContext.parley.registry)
        let router = Router(context: ContractContext.self)
        router.add(middleware: ParleyMiddleware())
        if checked { router.add(middleware: ContractMiddleware(document: document, responses: responses)) }
        router.get("/books/:id") { _, context -> Negotiated in
            let id = try context.parameters.require("id", as: Int.self)
            // Book 13 is answered against the contract: its id as text, no title.
            return Negotiated(id == 13 ? ["id": "thirteen"] : ["id": .integer(Int64(id)), "title": "Dune"] as Value)
        }
        router.post("/books") { request, context in
            Negotiated(try await context.requestDecoder.decodeValue(from: request), status: .created)
        }
        return router
    }

    func send(_ testCase: LiveCase, responses: ContractMode = .off, checked: Bool = true,
              logger: Logger? = nil) async throws -> LiveRunner.Answer {
        try await withLiveServer(try router(responses: responses, checked: checked), logger: logger) {
            try await LiveRunner(baseURL: $0).send(testCase)
        }
    }

    /// The `violations` of a JSON problem.
    func violations(_ answer: LiveRunner.Answer) throws -> [Value] {
        let problem = try #require(ProblemDetails(value: JSONFormat().decode(answer.body)))
        guard case .array(let violations) = problem.extensions["violations"] else { return [] }
        return violations
    }

    @Test func aValidRequestReachesTheRoute() async throws {
        let answer = try await send(LiveCase("valid", .get, "/books/7?fields=title", status: 200))
        #expect(answer.status == 200)
        #expect(try JSONFormat().decode(answer.body) == ["id": 7, "title": "Dune"])
    }

    @Test func aPathParameterOfTheWrongTypeIs400() async throws {
        let answer = try await send(LiveCase("wrong type", .get, "/books/seven?fields=title", status: 400))
        #expect(answer.status == 400)
        #expect(answer.headerFields[.contentType] == "application/problem+json; charset=utf-8")
        let found = try violations(answer)
        #expect(found.count == 1)
        #expect(found.first?["kind"] == "contract-request")
        #expect(found.first?["message"]?.stringValue?.contains("path parameter 'id' of getBook") == true)
    }

    @Test func aMissingRequiredParameterIs400() async throws {
        let answer = try await send(LiveCase("missing", .get, "/books/7", status: 400))
        #expect(answer.status == 400)
        let messages = try violations(answer).compactMap { $0["message"]?.stringValue }
        #expect(messages == ["query parameter 'fields' of getBook is required and missing"])
    }

    @Test func anUndeclaredContentTypeIs400InTheFormatTheClientAccepts() async throws {
        let answer = try await send(LiveCase("yaml body", .post, "/books",
                                             headerFields: [.contentType: "application/yaml",
                                                            .accept: "application/yaml"],
                                             body: Array("id: 1\ntitle: Dune\n".utf8), status: 400))
        #expect(answer.status == 400)
        // YAML, as every Parley problem a client accepting only YAML gets.
        #expect(answer.headerFields[.contentType] == "application/yaml; charset=utf-8")
        let problem = try #require(ProblemDetails(value: YAMLFormat().decode(answer.body)))
        guard case .array(let violations) = problem.extensions["violations"] else {
            Issue.record("no violations in \(problem)")
            return
        }
        let message = violations.first?["message"]?.stringValue ?? ""
        #expect(message.contains("application/yaml, which the document does not declare"))
    }

    @Test func aBodyAgainstItsSchemaListsEveryViolationWithItsPaths() async throws {
        let answer = try await send(LiveCase("bad body", .post, "/books",
                                             headerFields: [.contentType: "application/json"],
                                             body: Array(#"{"id": "one"}"#.utf8), status: 400))
        #expect(answer.status == 400)
        let found = try violations(answer)
        #expect(found.count == 2)
        #expect(found.contains { $0["instance_path"] == "/id" && $0["value"] == "one" })
        #expect(found.allSatisfy { $0["schema_path"]?.stringValue?.hasPrefix("#/components/schemas/Book") == true })
    }

    @Test func aValidPostPassesWithResponsesEnforced() async throws {
        let answer = try await send(LiveCase("valid post", .post, "/books",
                                             headerFields: [.contentType: "application/json"],
                                             body: Array(#"{"id": 1, "title": "Dune"}"#.utf8), status: 201),
                                    responses: .enforce)
        #expect(answer.status == 201)
    }

    @Test func anEnforcedResponseViolationIs500() async throws {
        let answer = try await send(LiveCase("bad response", .get, "/books/13?fields=title", status: 500),
                                    responses: .enforce)
        #expect(answer.status == 500)
        let found = try violations(answer)
        #expect(found.map { $0["kind"] } == ["contract-body", "contract-body"])
        #expect(found.contains { $0["instance_path"] == "/id" && $0["value"] == "thirteen" })
    }

    @Test func aReportedResponseViolationIsLoggedAndTheAnswerGoesOut() async throws {
        let handler = CapturedErrors()
        let answer = try await send(LiveCase("reported", .get, "/books/13?fields=title", status: 200),
                                    responses: .report, logger: Logger(label: "contract") { _ in handler })
        #expect(answer.status == 200)
        #expect(try JSONFormat().decode(answer.body) == ["id": "thirteen"])
        let logged = handler.messages.withLock { $0 }.filter { $0.hasPrefix("contract-") }
        #expect(logged.count == 2)
        #expect(logged.allSatisfy { $0.hasPrefix("contract-body: the 200 response of getBook") })
    }

    @Test func responsesAreNotCheckedUnlessAsked() async throws {
        let answer = try await send(LiveCase("unchecked", .get, "/books/13?fields=title", status: 200))
        #expect(answer.status == 200)
    }

    @Test func withoutTheMiddlewareTheViolatingRequestsReachTheRoute() async throws {
        let missing = try await send(LiveCase("missing", .get, "/books/7", status: 200), checked: false)
        #expect(missing.status == 200)
        let badBody = try await send(LiveCase("bad body", .post, "/books",
                                              headerFields: [.contentType: "application/json"],
                                              body: Array(#"{"id": "one"}"#.utf8), status: 201), checked: false)
        #expect(badBody.status == 201)
        let badResponse = try await send(LiveCase("bad response", .get, "/books/13?fields=title", status: 200),
                                         responses: .enforce, checked: false)
        #expect(badResponse.status == 200)
    }
}
