import Parley
import ParleyOpenAPI
import Testing

@Suite struct DocumentLoadingTests {
    @Test func loadsAnOpenAPI30DocumentFromYAML() throws {
        let document = try bookshop()
        #expect(document.version == "3.0.3")
        #expect(document.operations.map(\.name) == ["listBooks", "addBook", "myBooks", "getBook", "getFile"])
        let getBook = try #require(document.operations.first { $0.name == "getBook" })
        #expect(getBook.parameters.map(\.name) == ["id"])
        #expect(getBook.parameters[0].location == .path)
    }

    @Test func loadsAnOpenAPI31DocumentFromJSON() throws {
        let folder = try temporaryFolder(["api.json": """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
             "paths": {"/things/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": true,
               "schema": {"type": ["integer", "null"]}}],
               "responses": {"200": {"description": "ok", "content": {"application/json":
                 {"schema": {"type": "object", "properties": {"n": {"type": "integer", "exclusiveMinimum": 0}}}}}}}}}}}
            """])
        let document = try OpenAPIDocument(contentsOf: folder + "/api.json", registry: testRegistry)
        #expect(document.version == "3.1.0")
        let checker = ContractChecker(document: document, registry: testRegistry)
        let request = ContractRequest(method: "GET", target: "/things/4")
        #expect(checker.check(request: request, response: ContractResponse(
            status: 200, headers: [("Content-Type", "application/json")], body: json(#"{"n": 1}"#))).isEmpty)
        // 3.1 numeric exclusiveMinimum: 0 is not above 0.
        let findings = checker.check(request: request, response: ContractResponse(
            status: 200, headers: [("Content-Type", "application/json")], body: json(#"{"n": 0}"#)))
        #expect(findings.map(\.kind) == [.body])
        #expect(findings.first?.instancePath == "/n")
    }

    @Test func followsExternalReferencesToLocalFiles() throws {
        let folder = try temporaryFolder([
            "openapi.yaml": """
                openapi: 3.0.3
                info: {title: t, version: "1"}
                paths:
                  /pets:
                    get:
                      responses:
                        "200": {$ref: "shared/responses.yaml#/PetList"}
                """,
            "shared/responses.yaml": """
                PetList:
                  description: pets
                  content:
                    application/json: {schema: {type: array, items: {$ref: "../schemas/pet.json"}}}
                """,
            "schemas/pet.json": #"""
                {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}
                """#,
        ])
        let document = try OpenAPIDocument(contentsOf: folder + "/openapi.yaml", registry: testRegistry)
        let checker = ContractChecker(document: document, registry: testRegistry)
        let request = ContractRequest(method: "GET", target: "/pets")
        let typed = [("Content-Type", "application/json")]
        let good = ContractResponse(status: 200, headers: typed, body: json(#"[{"name": "Rex"}]"#))
        #expect(checker.check(request: request, response: good).isEmpty)
        let bad = ContractResponse(status: 200, headers: typed, body: json(#"[{"name": 7}]"#))
        let findings = checker.check(request: request, response: bad)
        #expect(findings.map(\.kind) == [.body])
        #expect(findings.first?.schemaPath?.contains("pet.json#/properties/name/type") == true)
    }

    @Test func aMissingExternalFileIsAnErrorNamingIt() throws {
        let folder = try temporaryFolder(["openapi.yaml": """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /pets:
                get:
                  responses:
                    "200": {$ref: "nowhere.yaml#/PetList"}
            """])
        #expect {
            try OpenAPIDocument(contentsOf: folder + "/openapi.yaml", registry: testRegistry)
        } throws: { error in
            guard let error = error as? OpenAPILoadError else { return false }
            return error.code == .unreadable && error.file.hasSuffix("nowhere.yaml")
        }
    }

    @Test func aDocumentOfAnotherVersionIsRefused() throws {
        let folder = try temporaryFolder(["swagger.yaml": "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n",
                                          "v4.yaml": "openapi: 4.0.0\ninfo: {title: t, version: '1'}\npaths: {}\n"])
        for name in ["swagger.yaml", "v4.yaml"] {
            #expect {
                try OpenAPIDocument(contentsOf: folder + "/" + name, registry: testRegistry)
            } throws: { error in
                let loadError = error as? OpenAPILoadError
                return loadError?.code == .unsupportedVersion && loadError?.pointer == "/openapi"
            }
        }
    }

    @Test func aMalformedDocumentNamesThePlace() throws {
        let folder = try temporaryFolder(["bad.yaml": """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /pets:
                get:
                  responses:
                    "200": {content: {application/json: {schema: {type: object}}}}
            """])
        #expect {
            try OpenAPIDocument(contentsOf: folder + "/bad.yaml", registry: testRegistry)
        } throws: { error in
            guard let error = error as? OpenAPILoadError else { return false }
            return error.code == .invalidDocument && error.pointer.hasPrefix("/paths/~1pets/get")
        }
    }

    @Test func aFileThatIsNeitherJSONNorYAMLIsUndecodable() throws {
        let folder = try temporaryFolder(["broken.json": "{\"openapi\": "])
        #expect {
            try OpenAPIDocument(contentsOf: folder + "/broken.json", registry: testRegistry)
        } throws: { error in
            (error as? OpenAPILoadError)?.code == .undecodable
        }
    }
}
