import Parley
import ParleyOpenAPI
import Testing

/// The document's structure read over its decoded value: Reference Objects followed for path
/// items, parameters, request bodies, responses and headers; a structure that is not OpenAPI
/// where it is read is an error naming the place.
@Suite struct DocumentStructureTests {
    @Test func schemasReachedThroughOneReferenceReportTheirOwnPlaces() throws {
        let folder = try temporaryFolder([
            "api.yaml": """
                openapi: 3.1.0
                info: {title: t, version: "1"}
                paths:
                  /a~b/c:
                    get:
                      responses:
                        "200": {description: a, content: {application/json: {schema: {$ref: "#/components/schemas/N"}}}}
                        "201": {description: b, content: {application/json: {schema: {$ref: "#/components/schemas/N"}}}}
                        "202": {description: ok, content: {application/json: {schema: {type: integer}}}}
                components:
                  schemas:
                    N: {$ref: "#/components/schemas/Count"}
                    Count: {type: integer, minimum: 1}
                """,
        ])
        let document = try OpenAPIDocument(contentsOf: folder + "/api.yaml", registry: testRegistry)
        let checker = ContractChecker(document: document, registry: testRegistry)
        let request = ContractRequest(method: "GET", target: "/a~b/c")
        func schemaPaths(_ status: Int, _ body: String) -> [String?] {
            let response = ContractResponse(status: status, headers: [("Content-Type", "application/json")],
                                            body: Array(body.utf8))
            return checker.check(request: request, response: response).map(\.schemaPath)
        }
        // 200 and 201 share the compiled schema of Count; each still validates and reports it.
        #expect(schemaPaths(200, "0") == ["#/components/schemas/Count/minimum"])
        #expect(schemaPaths(201, "\"x\"") == ["#/components/schemas/Count/type"])
        #expect(schemaPaths(201, "3") == [])
        // A schema in place under a path with '~' and '/' is named by its escaped pointer.
        let inPlace = "#/paths/~1a~0b~1c/get/responses/202/content/application~1json/schema/type"
        #expect(schemaPaths(202, "\"x\"") == [inPlace])
    }

    @Test func referencesAreFollowedForEveryReferableObject() throws {
        let folder = try temporaryFolder([
            "api.yaml": """
                openapi: 3.1.0
                info: {title: t, version: "1"}
                paths:
                  /pets/{id}: {$ref: "items.yaml#/Pet"}
                components:
                  parameters:
                    Id: {$ref: "#/components/parameters/IdTarget"}
                    IdTarget: {name: id, in: path, required: true, schema: {type: integer}}
                  requestBodies:
                    Pet: {required: true, content: {application/json: {schema: {type: object, required: [name]}}}}
                  responses:
                    Pet: {description: a pet, headers: {X-Count: {$ref: "#/components/headers/Count"}},
                          content: {application/json: {schema: {type: object}}}}
                  headers:
                    Count: {required: true, schema: {type: integer}}
                """,
            "items.yaml": """
                Pet:
                  parameters: [{$ref: "api.yaml#/components/parameters/Id"}]
                  put:
                    operationId: putPet
                    requestBody: {$ref: "api.yaml#/components/requestBodies/Pet"}
                    responses: {"200": {$ref: "api.yaml#/components/responses/Pet"}}
                """,
        ])
        let document = try OpenAPIDocument(contentsOf: folder + "/api.yaml", registry: testRegistry)
        let operation = try #require(document.operations.first)
        #expect(document.operations.map(\.name) == ["putPet"])
        #expect(operation.parameters.map(\.name) == ["id"])
        #expect(operation.parameters.first?.location == .path)
        #expect(operation.requestBody?.isRequired == true)
        let response = try #require(operation.responses.response(for: 200))
        #expect(response.headers.map(\.name) == ["X-Count"])
        #expect(response.headers.first?.isRequired == true)

        let checker = ContractChecker(document: document, registry: testRegistry)
        let request = ContractRequest(method: "PUT", target: "/pets/x", headers: [("Content-Type", "application/json")],
                                      body: json("{}"))
        let findings = checker.check(request: request, response: ContractResponse(
            status: 200, headers: [("Content-Type", "application/json"), ("X-Count", "1")], body: json("{}")))
        #expect(findings.map(\.kind) == [.request, .request], "\(findings)")
    }

    @Test func operationsAreInDocumentOrder() throws {
        let folder = try temporaryFolder(["api.json": """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {
              "/b": {"x-note": 1, "post": {"operationId": "b1"}, "delete": {"operationId": "b2"},
                     "get": {"operationId": "b3"}},
              "x-skipped": {}, "/a": {"patch": {"operationId": "a1"}, "put": {"operationId": "a2"}}}}
            """])
        let document = try OpenAPIDocument(contentsOf: folder + "/api.json", registry: testRegistry)
        #expect(document.operations.map(\.name) == ["b1", "b2", "b3", "a1", "a2"])
        #expect(document.operations.map(\.method) == ["POST", "DELETE", "GET", "PATCH", "PUT"])
    }

    static let malformed: [(name: String, paths: String, code: OpenAPILoadError.Code, pointer: String)] = [
        ("paths not an object", "paths: [1]", .invalidDocument, "/paths"),
        ("a parameter without a name", "paths: {/a: {get: {parameters: [{in: query, schema: {}}], responses: {}}}}",
         .invalidDocument, "/paths/~1a/get/parameters/0"),
        ("a parameter without in", "paths: {/a: {get: {parameters: [{name: q, schema: {}}], responses: {}}}}",
         .invalidDocument, "/paths/~1a/get/parameters/0"),
        ("an unknown in", "paths: {/a: {get: {parameters: [{name: q, in: body, schema: {}}], responses: {}}}}",
         .invalidDocument, "/paths/~1a/get/parameters/0/in"),
        ("an unknown style",
         "paths: {/a: {get: {parameters: [{name: q, in: query, style: wavy, schema: {}}], responses: {}}}}",
         .invalidDocument, "/paths/~1a/get/parameters/0/style"),
        ("a parameter with neither schema nor content",
         "paths: {/a: {get: {parameters: [{name: q, in: query}], responses: {}}}}",
         .invalidDocument, "/paths/~1a/get/parameters/0"),
        ("a status key that is none", "paths: {/a: {get: {responses: {'20': {description: d}}}}}",
         .invalidDocument, "/paths/~1a/get/responses/20"),
        ("a $ref naming nothing", "paths: {/a: {get: {parameters: [{$ref: '#/components/parameters/Nope'}]}}}",
         .unresolvedReference, "/components/parameters/Nope"),
        ("a reference cycle",
         "paths: {/a: {$ref: '#/components/pathItems/A'}}\n"
             + "components: {pathItems: {A: {$ref: '#/components/pathItems/B'},\n"
             + "                         B: {$ref: '#/components/pathItems/A'}}}",
         .unresolvedReference, "/paths/~1a"),
        ("a path not starting with /", "paths: {a: {}}", .invalidDocument, "/paths/a"),
    ]

    @Test(arguments: malformed.indices)
    func aMalformedStructureIsAnErrorNamingThePlace(index: Int) throws {
        let item = Self.malformed[index]
        let folder = try temporaryFolder(["api.yaml": "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n" + item.paths])
        #expect(Comment(rawValue: item.name)) {
            try OpenAPIDocument(contentsOf: folder + "/api.yaml", registry: testRegistry)
        } throws: { error in
            guard let error = error as? OpenAPILoadError else { return false }
            return error.code == item.code && error.pointer == item.pointer && error.file.hasSuffix("api.yaml")
        }
    }

    @Test func aSchemaThatDoesNotCompileNamesTheBrokenKeyword() throws {
        let folder = try temporaryFolder(["api.yaml": """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /a:
                get:
                  responses:
                    "200": {description: d, content: {application/json: {schema: {$ref: "#/components/schemas/N"}}}}
            components:
              schemas:
                N: {type: number, minimum: 0, exclusiveMinimum: true}
            """])
        #expect {
            try OpenAPIDocument(contentsOf: folder + "/api.yaml", registry: testRegistry)
        } throws: { error in
            guard let error = error as? OpenAPILoadError else { return false }
            return error.code == .invalidSchema && error.pointer == "/components/schemas/N/exclusiveMinimum"
                && error.message.contains("/paths/~1a/get/responses/200/content/application~1json/schema")
        }
    }
}
