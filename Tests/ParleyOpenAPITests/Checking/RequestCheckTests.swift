import Parley
import ParleyMessagePack
import ParleyOpenAPI
import Testing

@Suite struct RequestCheckTests {
    let checker: ContractChecker

    init() throws {
        checker = ContractChecker(document: try bookshop(), registry: testRegistry)
    }

    func findings(_ request: ContractRequest, status: Int = 200) -> [ContractFinding] {
        let created = json(#"{"id": 1, "title": "a", "isbn": "9780441013593"}"#)
        let response = status == 201
            ? ContractResponse(status: 201, headers: [("Content-Type", "application/json")], body: created)
            : bookListResponse()
        return checker.check(request: request, response: response)
    }

    @Test func aConformingRequestPasses() {
        let request = ContractRequest(method: "GET", target: "/v1/books?limit=5", headers: [("X-Trace", "ab12")])
        #expect(findings(request).isEmpty)
    }

    @Test func aMissingRequiredQueryParameterIsAnError() {
        let found = findings(ContractRequest(method: "GET", target: "/v1/books"))
        #expect(found.map(\.kind) == [.request])
        #expect(found[0].message.contains("'limit'"))
    }

    @Test func parametersAreReadByTheirSchemaType() {
        #expect(findings(ContractRequest(method: "GET", target: "/v1/books?limit=many")).map(\.kind) == [.request])
        #expect(findings(ContractRequest(method: "GET", target: "/v1/books?limit=500")).map(\.kind) == [.request])
        let trace = ContractRequest(method: "GET", target: "/v1/books?limit=1", headers: [("x-trace", "XYZ")])
        #expect(findings(trace).map(\.kind) == [.request])
    }

    @Test func aPathParameterIsCheckedToo() {
        let request = ContractRequest(method: "GET", target: "/v1/books/0")
        let response = ContractResponse(status: 200, headers: [("Content-Type", "application/json")],
                                        body: json(#"{"title": "a", "isbn": "9780441013593"}"#))
        #expect(checker.check(request: request, response: response).map(\.kind) == [.request])
        let fine = ContractRequest(method: "GET", target: "/v1/books/3")
        #expect(checker.check(request: fine, response: response).isEmpty)
    }

    @Test func aRequestBodyIsCheckedAndReadOnlyIsRefused() throws {
        func post(_ body: String, type: String = "application/json") -> ContractRequest {
            ContractRequest(method: "POST", target: "/v1/books", headers: [("Content-Type", type)], body: json(body))
        }
        #expect(findings(post(#"{"title": "a", "isbn": "9780441013593"}"#), status: 201).isEmpty)
        let readOnly = findings(post(#"{"id": 3, "title": "a", "isbn": "9780441013593"}"#), status: 201)
        #expect(readOnly.map(\.kind) == [.request])
        #expect(readOnly.first?.instancePath == "/id")
        #expect(findings(post(#"{"title": "a"}"#), status: 201).map(\.kind) == [.request])
        #expect(findings(post("title: a\n", type: "application/yaml"), status: 201).map(\.kind) == [.request])
        let missing = ContractRequest(method: "POST", target: "/v1/books")
        #expect(findings(missing, status: 201).map(\.kind) == [.request])
    }

    @Test func aMessagePackRequestBodyIsChecked() throws {
        for (value, expected) in [(["title": "a", "isbn": "9780441013593"] as Value, [ContractFinding.Kind]()),
                                  (["title": "a", "isbn": 9780441013593] as Value, [.request])] {
            let request = ContractRequest(method: "POST", target: "/v1/books",
                                          headers: [("Content-Type", "application/msgpack")],
                                          body: try MessagePackFormat().encode(value))
            #expect(findings(request, status: 201).map(\.kind) == expected)
        }
    }

    @Test func aBodyOnAnOperationWithoutOneIsAnError() {
        let request = ContractRequest(method: "GET", target: "/v1/books?limit=1",
                                      headers: [("Content-Type", "application/json")], body: json("{}"))
        #expect(findings(request).map(\.kind) == [.request])
    }
}

/// readOnly and writeOnly by direction in an OpenAPI 3.1 document too.
@Suite struct DirectionIn31Tests {
    @Test func readOnlyIsRefusedInRequestsAndWriteOnlyInResponses() throws {
        let folder = try temporaryFolder(["api.json": """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/users": {"post": {
              "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}},
              "responses": {"201": {"description": "ok",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}}}}}},
             "components": {"schemas": {"User": {"type": "object", "properties": {
               "id": {"type": "integer", "readOnly": true}, "password": {"type": "string", "writeOnly": true}}}}}}
            """])
        let document = try OpenAPIDocument(contentsOf: folder + "/api.json", registry: testRegistry)
        let checker = ContractChecker(document: document, registry: testRegistry)
        func exchange(request: String, response: String) -> [ContractFinding] {
            checker.check(
                request: ContractRequest(method: "POST", target: "/users",
                                         headers: [("Content-Type", "application/json")], body: json(request)),
                response: ContractResponse(status: 201, headers: [("Content-Type", "application/json")],
                                           body: json(response)))
        }
        #expect(exchange(request: #"{"password": "p"}"#, response: #"{"id": 1}"#).isEmpty)
        #expect(exchange(request: #"{"id": 1, "password": "p"}"#, response: #"{"id": 1}"#).map(\.kind) == [.request])
        let writeOnly = exchange(request: #"{"password": "p"}"#, response: #"{"id": 1, "password": "p"}"#)
        #expect(writeOnly.map(\.kind) == [.body])
    }
}
