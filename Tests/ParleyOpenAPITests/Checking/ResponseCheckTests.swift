import Parley
import ParleyCBOR
import ParleyMessagePack
import ParleyOpenAPI
import ParleyXML
import Testing

@Suite struct ResponseCheckTests {
    let checker: ContractChecker
    let list = ContractRequest(method: "GET", target: "/v1/books?limit=5")

    init() throws {
        checker = ContractChecker(document: try bookshop(), registry: testRegistry)
    }

    func kinds(_ response: ContractResponse, _ request: ContractRequest? = nil) -> [ContractFinding.Kind] {
        checker.check(request: request ?? list, response: response).map(\.kind)
    }

    @Test func aConformingJSONResponsePasses() {
        #expect(checker.check(request: list, response: bookListResponse()).isEmpty)
    }

    @Test func anUndeclaredStatusIsAnError() {
        let response = ContractResponse(status: 500, headers: [("Content-Type", "application/json")], body: json("{}"))
        let findings = checker.check(request: list, response: response)
        #expect(findings.map(\.kind) == [.status])
        #expect(findings[0].message.contains("200, 4XX"))
    }

    @Test func aRangeAndDefaultCoverTheirStatuses() {
        let problem = ContractResponse(status: 404, headers: [("Content-Type", "application/json")],
                                       body: json(#"{"title": "no"}"#))
        #expect(kinds(problem).isEmpty)
        let badProblem = ContractResponse(status: 404, headers: [("Content-Type", "application/json")],
                                          body: json("{}"))
        #expect(kinds(badProblem) == [.body])
        let book = ContractRequest(method: "GET", target: "/v1/books/3")
        // default, declared as application/*: a +json problem matches the range.
        let teapot = ContractResponse(status: 418, headers: [("Content-Type", "application/problem+json")],
                                      body: json(#"{"title": "teapot"}"#))
        #expect(kinds(teapot, book).isEmpty)
        let wrongProblem = ContractResponse(status: 418, headers: [("Content-Type", "application/problem+json")],
                                            body: json(#"{"title": 5}"#))
        #expect(kinds(wrongProblem, book) == [.body])
    }

    @Test func anUndeclaredContentTypeIsAnError() {
        let findings = checker.check(request: list, response: bookListResponse(type: "text/html"))
        #expect(findings.map(\.kind) == [.contentType])
        #expect(findings[0].message.contains("text/html"))
        let untyped = ContractResponse(status: 200, headers: [("X-Rate-Limit", "1")], body: json("[]"))
        #expect(kinds(untyped) == [.contentType])
    }

    @Test func aSuffixTypeMatchesItsBaseType() {
        // application/vnd.books+json is not declared, application/json is: the suffix's base type matches.
        #expect(kinds(bookListResponse(type: "application/vnd.books+json")).isEmpty)
    }

    @Test func aMissingOrMistypedRequiredHeaderIsAnError() {
        let missing = ContractResponse(status: 200, headers: [("Content-Type", "application/json")], body: json("[]"))
        let findings = checker.check(request: list, response: missing)
        #expect(findings.map(\.kind) == [.header])
        #expect(findings[0].message.contains("X-Rate-Limit"))
        let mistyped = ContractResponse(status: 200,
                                        headers: [("Content-Type", "application/json"), ("x-rate-limit", "lots")],
                                        body: json("[]"))
        #expect(kinds(mistyped) == [.header])
    }

    @Test func aJSONBodyViolationNamesItsInstanceAndSchemaPaths() throws {
        let response = bookListResponse(#"[{"title": 12, "isbn": "9780441013593"}]"#)
        let findings = checker.check(request: list, response: response)
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.kind == .body)
        #expect(finding.instancePath == "/0/title")
        #expect(finding.schemaPath == "#/components/schemas/Book/properties/title/type")
        #expect(finding.value == .integer(12))
    }

    @Test(arguments: [
        #"[{"title": "Dune"}]"#,  // missing required isbn
        #"[{"title": "Dune", "isbn": "9780441013593", "pages": 412}]"#,  // additionalProperties: false
        #"[{"title": "Dune", "isbn": "9780441013593", "genre": "cookery"}]"#,  // enum
        #"[{"title": "Dune", "isbn": "978-0441013593"}]"#,  // pattern
        #"[{"title": "Dune", "isbn": "9780441013593", "secret": "x"}]"#,  // writeOnly in a response
        #"{"title": "Dune", "isbn": "9780441013593"}"#,  // wrong type
    ])
    func eachSchemaViolationOfAJSONBodyIsFound(body: String) {
        #expect(kinds(bookListResponse(body)) == [.body])
    }

    @Test func nullableFromOpenAPI30IsHonoured() {
        #expect(kinds(bookListResponse(#"[{"title": "Dune", "isbn": "9780441013593", "genre": null}]"#)).isEmpty)
    }

    @Test func aYAMLBodyIsCheckedAgainstTheSameSchema() {
        #expect(kinds(bookListResponse("- {title: Dune, isbn: '9780441013593'}\n", type: "application/yaml")).isEmpty)
        let wrong = bookListResponse("- {title: Dune, isbn: 9780441013593}\n", type: "application/yaml")
        let findings = checker.check(request: list, response: wrong)
        #expect(findings.map(\.kind) == [.body])
        #expect(findings.first?.instancePath == "/0/isbn")
    }

    @Test func aMessagePackBodyIsCheckedAgainstTheSameSchema() throws {
        let good: Value = [["title": "Dune", "isbn": "9780441013593"]]
        let bad: Value = [["title": "Dune", "isbn": "9780441013593", "secret": "s"]]
        for (value, expected) in [(good, [ContractFinding.Kind]()), (bad, [.body])] {
            let response = ContractResponse(status: 200,
                                            headers: [("Content-Type", "application/msgpack"), ("X-Rate-Limit", "1")],
                                            body: try MessagePackFormat().encode(value))
            #expect(kinds(response) == expected)
        }
    }

    @Test func aDecodedBodyIsUsedAsGiven() {
        var response = bookListResponse("not even JSON")
        response.decodedBody = [["title": "Dune", "isbn": "9780441013593"]]
        #expect(kinds(response).isEmpty)
        response.decodedBody = [["title": "Dune"]]
        #expect(kinds(response) == [.body])
    }

    @Test func aTypeWithoutSchemaOrDecoderIsUncheckedNotPassed() {
        let mine = ContractRequest(method: "GET", target: "/v1/books/mine")
        let text = ContractResponse(status: 200, headers: [("Content-Type", "text/plain")], body: json("hello"))
        #expect(kinds(text, mine) == [.unchecked])
        let png = ContractResponse(status: 200, headers: [("Content-Type", "image/png")], body: [0x89, 0x50])
        #expect(kinds(png, mine) == [.unchecked])
    }

    @Test func aBodyThatDoesNotDecodeIsABodyError() {
        #expect(kinds(bookListResponse("[{")) == [.body])
    }

    @Test func headAndNoContentStatusesHaveNoBodyToCheck() {
        let head = ContractRequest(method: "HEAD", target: "/v1/books/1")
        #expect(kinds(ContractResponse(status: 200), head).isEmpty)
        let file = ContractRequest(method: "GET", target: "/v1/files/a.txt")
        #expect(kinds(ContractResponse(status: 204), file).isEmpty)
        #expect(kinds(ContractResponse(status: 200, headers: [("X-Rate-Limit", "1")])) == [.contentType])
    }
}

/// A checker for one operation, `GET /order`, whose 200 declares `type` with an order's schema
/// (`id` required, `qty` at most 100), its registry the test formats and `format`.
private func orderChecker(answering type: String, openapi version: String,
                          with format: any Format) throws -> ContractChecker {
    let folder = try temporaryFolder(["api.yaml": """
        openapi: \(version)
        info: {title: t, version: "1"}
        paths:
          /order:
            get:
              responses:
                "200":
                  description: ok
                  content:
                    \(type):
                      schema:
                        type: object
                        required: [id]
                        properties: {id: {type: integer}, qty: {type: integer, maximum: 100}}
        """])
    let registry = Registry(formats: testRegistry.formats + [format])
    let document = try OpenAPIDocument(contentsOf: folder + "/api.yaml", registry: registry)
    return ContractChecker(document: document, registry: registry)
}

private let orderRequest = ContractRequest(method: "GET", target: "/order")

/// An XML body is checked as its root element's content (through the Schema Object's `xml`),
/// its text scalars read by the schema's types.
@Suite struct XMLBodyCheckTests {
    @Test func anXMLBodyIsCheckedAsItsRootElementsContent() throws {
        let checker = try orderChecker(answering: "application/xml", openapi: "3.0.3", with: XMLFormat())
        func response(_ xml: String) -> ContractResponse {
            ContractResponse(status: 200, headers: [("Content-Type", "application/xml")], body: json(xml))
        }
        let conforming = response("<order><id>7</id><qty>2</qty></order>")
        #expect(checker.check(request: orderRequest, response: conforming).isEmpty)
        let findings = checker.check(request: orderRequest,
                                     response: response("<order><id>7</id><qty>250</qty></order>"))
        #expect(findings.map(\.kind) == [.body])
        #expect(findings.first?.instancePath == "/qty")
    }
}

/// A CBOR body is checked against its media type's schema like any other registered format's.
@Suite struct CBORBodyCheckTests {
    @Test func aCBORBodyIsCheckedAgainstItsSchema() throws {
        let checker = try orderChecker(answering: "application/cbor", openapi: "3.1.0", with: CBORFormat())
        func response(_ value: Value) throws -> ContractResponse {
            ContractResponse(status: 200, headers: [("Content-Type", "application/cbor")],
                             body: try CBORFormat().encode(value))
        }
        #expect(checker.check(request: orderRequest, response: try response(["id": 7, "qty": 2])).isEmpty)
        let findings = checker.check(request: orderRequest, response: try response(["id": 7, "qty": 250]))
        #expect(findings.map(\.kind) == [.body])
        #expect(findings.first?.instancePath == "/qty")
        #expect(checker.check(request: orderRequest, response: try response(["qty": 2])).map(\.kind) == [.body])
    }
}
