import Logging
import Parley
import ParleyHTTP
import ParleyJSON
import ParleyOpenAPI
import ParleyVapor
import ParleyYAML
import Synchronization
import Testing
import Vapor

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
    /// Parley and, when `checked`, the contract middleware around the book routes.
    func routes(responses: ContractMode, checked: Bool, logger: CapturedErrors?) -> (Application) throws -> Void {
        { app in
            if let logger { app.logger = Logger(label: "contract") { _ in logger } }
            let server = ParleyServer(registry: testRegistry)
            app.parley.use(server)
            let document = try OpenAPIDocument(YAMLFormat().decode(Array(booksDocument.utf8)),
                                               uri: "file:///books.yaml", registry: server.registry)
            let middleware = ContractMiddleware(document: document, server: server, responses: responses)
            let api: any RoutesBuilder = checked ? app.grouped(middleware) : app
            api.get("books", ":id") { req -> Negotiated in
                let id = try req.parameters.require("id", as: Int.self)
                // Book 13 is answered against the contract: its id as text, no title.
                return Negotiated(id == 13 ? ["id": "thirteen"] : ["id": .integer(Int64(id)), "title": "Dune"] as Value)
            }
            api.post("books") { req in Negotiated(try req.parley.decode(), status: .created) }
        }
    }

    func send(_ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: String? = nil,
              responses: ContractMode = .off, checked: Bool = true,
              logger: CapturedErrors? = nil) async throws -> LiveResponse {
        let answer = Mutex<LiveResponse?>(nil)
        let install = routes(responses: responses, checked: checked, logger: logger)
        try await withLiveServer(installingParley: false, routes: install) { client in
            let response = try await client.send(method, path, headers: headers, body: body.map { Array($0.utf8) })
            answer.withLock { $0 = response }
        }
        return try #require(answer.withLock { $0 })
    }

    /// The `violations` of a problem.
    func violations(_ response: LiveResponse) throws -> [Value] {
        let decoded = response.contentType?.contains("yaml") == true
            ? try YAMLFormat().decode(response.body) : try JSONFormat().decode(response.body)
        let problem = try #require(ProblemDetails(value: decoded))
        guard case .array(let violations) = problem.extensions["violations"] else { return [] }
        return violations
    }

    @Test func aValidRequestReachesTheRoute() async throws {
        let response = try await send("/books/7?fields=title")
        #expect(response.status == 200)
        #expect(try JSONFormat().decode(response.body) == ["id": 7, "title": "Dune"])
    }

    @Test func aPathParameterOfTheWrongTypeIs400() async throws {
        let response = try await send("/books/seven?fields=title")
        #expect(response.status == 400)
        #expect(response.contentType == "application/problem+json; charset=utf-8")
        let found = try violations(response)
        #expect(found.count == 1)
        #expect(found.first?["kind"] == "contract-request")
        #expect(found.first?["message"]?.stringValue?.contains("path parameter 'id' of getBook") == true)
    }

    @Test func aMissingRequiredParameterIs400() async throws {
        let response = try await send("/books/7")
        #expect(response.status == 400)
        let messages = try violations(response).compactMap { $0["message"]?.stringValue }
        #expect(messages == ["query parameter 'fields' of getBook is required and missing"])
    }

    @Test func anUndeclaredContentTypeIs400InTheFormatTheClientAccepts() async throws {
        let response = try await send("/books", method: .POST,
                                      headers: [("Content-Type", "application/yaml"), ("Accept", "application/yaml")],
                                      body: "id: 1\ntitle: Dune\n")
        #expect(response.status == 400)
        // YAML, as every Parley problem a client accepting only YAML gets.
        #expect(response.contentType == "application/yaml; charset=utf-8")
        let found = try violations(response)
        let message = found.first?["message"]?.stringValue ?? ""
        #expect(message.contains("application/yaml, which the document does not declare"))
    }

    @Test func aBodyAgainstItsSchemaListsEveryViolationWithItsPaths() async throws {
        let response = try await send("/books", method: .POST, headers: [("Content-Type", "application/json")],
                                      body: #"{"id": "one"}"#)
        #expect(response.status == 400)
        let found = try violations(response)
        #expect(found.count == 2)
        #expect(found.contains { $0["instance_path"] == "/id" && $0["value"] == "one" })
        #expect(found.allSatisfy { $0["schema_path"]?.stringValue?.hasPrefix("#/components/schemas/Book") == true })
    }

    @Test func aValidPostPassesWithResponsesEnforced() async throws {
        let response = try await send("/books", method: .POST, headers: [("Content-Type", "application/json")],
                                      body: #"{"id": 1, "title": "Dune"}"#, responses: .enforce)
        #expect(response.status == 201)
    }

    @Test func anEnforcedResponseViolationIs500() async throws {
        let response = try await send("/books/13?fields=title", responses: .enforce)
        #expect(response.status == 500)
        let found = try violations(response)
        #expect(found.map { $0["kind"] } == ["contract-body", "contract-body"])
        #expect(found.contains { $0["instance_path"] == "/id" && $0["value"] == "thirteen" })
    }

    @Test func aReportedResponseViolationIsLoggedAndTheAnswerGoesOut() async throws {
        let handler = CapturedErrors()
        let response = try await send("/books/13?fields=title", responses: .report, logger: handler)
        #expect(response.status == 200)
        #expect(try JSONFormat().decode(response.body) == ["id": "thirteen"])
        let logged = handler.messages.withLock { $0 }.filter { $0.hasPrefix("contract-") }
        #expect(logged.count == 2)
        #expect(logged.allSatisfy { $0.hasPrefix("contract-body: the 200 response of getBook") })
    }

    @Test func responsesAreNotCheckedUnlessAsked() async throws {
        let response = try await send("/books/13?fields=title")
        #expect(response.status == 200)
    }

    @Test func withoutTheMiddlewareTheViolatingRequestsReachTheRoute() async throws {
        #expect(try await send("/books/7", checked: false).status == 200)
        let badBody = try await send("/books", method: .POST, headers: [("Content-Type", "application/json")],
                                     body: #"{"id": "one"}"#, checked: false)
        #expect(badBody.status == 201)
        #expect(try await send("/books/13?fields=title", responses: .enforce, checked: false).status == 200)
    }
}
