public import Parley
public import ParleyOpenAPI
import HTTPTypes
import ParleyHTTP

/// The shared live table of the contract middleware: the document a server under test checks
/// against, the routes it serves behind the middleware, and the cases every Parley server
/// integration must pass, run by ``LiveRunner`` and judged by ``check(_:logged:against:)``.
///
/// | route | behaviour |
/// |---|---|
/// | `GET /books/{id}` | ``book(_:)``, negotiated; book 13 breaks the contract (its id as text, no title) |
/// | `POST /books` | decodes the body by its `Content-Type` and answers it, negotiated, with 201 |
///
/// The server installs the middleware when the case is ``ContractCase/checked``, with
/// ``ContractCase/responses`` as its response mode, and logs at `error` level and above to a
/// ``CapturedLog`` the table reads.
public enum ContractTable {
    /// The document: a book by id (a required query parameter too), and adding a book as JSON.
    public static let document = """
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

    /// The URI the document is loaded under.
    public static let documentURI = "file:///books.yaml"

    /// The book `GET /books/{id}` answers: book 13 against the contract, every other one by it.
    public static func book(_ id: Int) -> Value {
        id == 13 ? ["id": "thirteen"] : ["id": .integer(Int64(id)), "title": "Dune"]
    }

    /// Every case, in a stable order; names are unique.
    public static var cases: [ContractCase] { checkedRequests + checkedResponses + unchecked }

    private static let json: HTTPFields = [.contentType: "application/json"]
    private static let badBook = Array(#"{"id": "one"}"#.utf8)

    /// Requests the middleware checks: valid ones pass, each violation is a 400 problem.
    public static var checkedRequests: [ContractCase] {
        [
            ContractCase(LiveCase("valid request", .get, "/books/7?fields=title", status: 200,
                                  expectedBody: .value(book(7)))),
            ContractCase(LiveCase("path parameter of the wrong type", .get, "/books/seven?fields=title",
                                  status: 400, contentType: "application/problem+json",
                                  requiredFields: [(.contentType, "charset=utf-8")]),
                         violations: ViolationsExpectation(kinds: ["contract-request"],
                                                           messages: ["path parameter 'id' of getBook"])),
            ContractCase(LiveCase("missing required parameter", .get, "/books/7", status: 400),
                         violations: ViolationsExpectation(
                            kinds: ["contract-request"],
                            messages: ["query parameter 'fields' of getBook is required and missing"])),
            // The problem comes in YAML, as every Parley problem a client accepting only YAML gets.
            ContractCase(LiveCase("undeclared request content type", .post, "/books",
                                  headerFields: [.contentType: "application/yaml", .accept: "application/yaml"],
                                  body: Array("id: 1\ntitle: Dune\n".utf8), status: 400,
                                  contentType: "application/yaml", requiredFields: [(.contentType, "charset=utf-8")]),
                         violations: ViolationsExpectation(
                            kinds: ["contract-request"],
                            messages: ["application/yaml, which the document does not declare"])),
            ContractCase(LiveCase("request body against its schema", .post, "/books", headerFields: json,
                                  body: badBook, status: 400),
                         violations: ViolationsExpectation(kinds: ["contract-request", "contract-request"],
                                                           offending: [("/id", "one")],
                                                           schemaPathPrefix: "#/components/schemas/Book")),
        ]
    }

    /// Responses: enforced (a violation is a 500 problem), reported (logged, the answer goes out),
    /// or not checked unless asked.
    public static var checkedResponses: [ContractCase] {
        [
            ContractCase(LiveCase("valid post, responses enforced", .post, "/books", headerFields: json,
                                  body: Array(#"{"id": 1, "title": "Dune"}"#.utf8), status: 201),
                         responses: .enforce),
            ContractCase(LiveCase("enforced response violation", .get, "/books/13?fields=title", status: 500),
                         responses: .enforce,
                         violations: ViolationsExpectation(kinds: ["contract-body", "contract-body"],
                                                           offending: [("/id", "thirteen")])),
            ContractCase(LiveCase("reported response violation", .get, "/books/13?fields=title", status: 200,
                                  expectedBody: .value(book(13))),
                         responses: .report,
                         logged: ["contract-body: the 200 response of getBook",
                                  "contract-body: the 200 response of getBook"]),
            ContractCase(LiveCase("responses unchecked unless asked", .get, "/books/13?fields=title",
                                  status: 200)),
        ]
    }

    /// Without the middleware, the violating exchanges reach the routes and go out as they are.
    public static var unchecked: [ContractCase] {
        [
            ContractCase(LiveCase("no middleware, missing parameter", .get, "/books/7", status: 200),
                         checked: false),
            ContractCase(LiveCase("no middleware, bad body", .post, "/books", headerFields: json, body: badBook,
                                  status: 201),
                         checked: false),
            ContractCase(LiveCase("no middleware, bad response", .get, "/books/13?fields=title", status: 200),
                         responses: .enforce, checked: false),
        ]
    }

    /// The ways `answer`, and the messages logged while it was made, differ from what `testCase`
    /// expects; empty when the case passed.
    public static func check(_ answer: LiveRunner.Answer, logged: [String], against testCase: ContractCase)
        -> [String] {
        var failures = LiveRunner.check(answer, against: testCase.request)
        if let expected = testCase.violations {
            failures += checkViolations(answer, expected)
        }
        let contractLines = logged.filter { $0.hasPrefix("contract-") }
        if let expected = testCase.logged,
           contractLines.count != expected.count || !zip(contractLines, expected).allSatisfy({ $0.hasPrefix($1) }) {
            failures.append("logged \(contractLines), expected lines starting with \(expected)")
        }
        return failures.map { "\(testCase.request.name): \($0)" }
    }

    private static func checkViolations(_ answer: LiveRunner.Answer, _ expected: ViolationsExpectation)
        -> [String] {
        let excerpt = ParleyError.excerpt(of: answer.body, maxCharacters: 300)
        guard let contentType = answer.headerFields[.contentType].flatMap(MediaType.init),
              let value = try? LiveRunner.registry.decode(answer.body, contentType: contentType),
              let problem = ProblemDetails(value: value),
              case .array(let violations) = problem.extensions["violations"] else {
            return ["no problem with violations in \"\(excerpt)\""]
        }
        var failures: [String] = []
        let kinds = violations.map { $0["kind"]?.stringValue ?? "none" }
        if kinds != expected.kinds { failures.append("violations of kinds \(kinds), expected \(expected.kinds)") }
        let messages = violations.compactMap { $0["message"]?.stringValue }
        for text in expected.messages where !messages.contains(where: { $0.contains(text) }) {
            failures.append("no violation message contains '\(text)': \(messages)")
        }
        for (path, offending) in expected.offending
        where !violations.contains(where: { $0["instance_path"]?.stringValue == path && $0["value"] == offending }) {
            failures.append("no violation at \(path) with the value \(offending): \(violations)")
        }
        if let prefix = expected.schemaPathPrefix,
           !violations.allSatisfy({ $0["schema_path"]?.stringValue?.hasPrefix(prefix) == true }) {
            failures.append("a violation's schema_path does not start with \(prefix): \(violations)")
        }
        return failures
    }
}

/// One exchange of ``ContractTable``: the request and its answer, how the middleware is set up,
/// and what it must report.
public struct ContractCase: Sendable, CustomStringConvertible {
    /// The request and what its answer must be.
    public var request: LiveCase
    /// How the middleware treats responses.
    public var responses: ContractMode
    /// Whether the routes are behind the middleware at all.
    public var checked: Bool
    /// The violations the answer's problem document must list, or `nil` to read none.
    public var violations: ViolationsExpectation?
    /// The start of each `contract-` message logged while the answer was made, in order, or `nil`
    /// to read none (how a server logs the violations it answers is its own).
    public var logged: [String]?

    /// Creates a case.
    public init(_ request: LiveCase, responses: ContractMode = .off, checked: Bool = true,
                violations: ViolationsExpectation? = nil, logged: [String]? = nil) {
        self.request = request
        self.responses = responses
        self.checked = checked
        self.violations = violations
        self.logged = logged
    }

    public var description: String { request.name }
}

/// What the `violations` of a problem document must hold.
public struct ViolationsExpectation: Sendable {
    /// The `kind` of each violation, in order.
    public var kinds: [String]
    /// Text that some violation's `message` contains, one entry per text.
    public var messages: [String]
    /// An `instance_path` and the `value` found there, each of which some violation names.
    public var offending: [(String, Value)]
    /// What every violation's `schema_path` starts with, if checked.
    public var schemaPathPrefix: String?

    /// Creates an expectation.
    public init(kinds: [String], messages: [String] = [], offending: [(String, Value)] = [],
                schemaPathPrefix: String? = nil) {
        self.kinds = kinds
        self.messages = messages
        self.offending = offending
        self.schemaPathPrefix = schemaPathPrefix
    }
}
