import Foundation
import Parley
import ParleyJSON
import ParleySchema
import ParleyTestKit
import ParleyYAML
import Testing

/// The bundled schemas of OpenAPI documents: small documents of our own, then the real OpenAPI
/// descriptions of the shared corpus (3.0.x against the 3.0 schema, 3.1.x against 3.1), as JSON and as
/// YAML, and broken copies of them whose errors name the instance path.
@Suite struct OpenAPIDocumentSchemaTests {
    typealias DocumentSchema = JSONSchema.OpenAPIDocumentSchema

    static let documents = Corpora.directory("real-world/documents")

    @Test func versionsPickTheirSchema() {
        #expect(DocumentSchema(openAPIVersion: "3.0.1") == .openAPI30)
        #expect(DocumentSchema(openAPIVersion: "3.0.10") == .openAPI30)
        #expect(DocumentSchema(openAPIVersion: "3.1.0") == .openAPI31)
        #expect(DocumentSchema(openAPIVersion: "3.2.0") == nil)
        #expect(DocumentSchema(openAPIVersion: "2.0") == nil)
        #expect(DocumentSchema(openAPIVersion: "3.1") == nil)
        #expect(DocumentSchema(openAPIVersion: "3.1.x") == nil)
    }

    @Test func aSmall30DocumentAndItsFaults() throws {
        let schema = try JSONSchema(openAPIDocument: .openAPI30)
        let good = try json(#"""
            {"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"},
             "paths": {"/pets/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": true,
               "schema": {"type": "integer", "nullable": true}}],
               "responses": {"200": {"description": "A pet"}}}}}}
            """#)
        #expect(try schema.isValid(good))
        let noResponses = try json(#"""
            {"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"},
             "paths": {"/pets/{id}": {"get": {"summary": "no responses"}}}}
            """#)
        let result = try schema.validate(noResponses)
        #expect(!result.isValid)
        #expect(result.errors.contains { $0.instanceLocation == "/paths/~1pets~1{id}/get" })
        let badVersion = try json(#"{"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"}, "paths": {}}"#)
        #expect(try schema.validate(badVersion).errors.contains { $0.instanceLocation == "/openapi" })
    }

    @Test func referencesReachTheBundledSchemasByURI() throws {
        for dialect in [JSONSchema.Dialect.draft202012, .draft4] {
            let schema = try JSONSchema(
                try json(#"{"$ref": "https://spec.openapis.org/oas/3.0/schema/2021-09-28"}"#),
                options: .init(dialect: dialect))
            let good = try json(#"{"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {}}"#)
            #expect(try schema.isValid(good))
            let untitled = try json(#"{"openapi": "3.0.0", "info": {"version": "1"}, "paths": {}}"#)
            let result = try schema.validate(untitled)
            #expect(result.errors.contains { $0.instanceLocation == "/info" }, "\(dialect): \(result.errors)")
        }
    }

    @Test func theDialectSchemaChecksSchemaObjects() throws {
        let document = try json(#"""
            {"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"},
             "components": {"schemas": {"Pet": {"type": "object", "discriminator": {"mapping": {}}}}}}
            """#)
        // The plain 3.1 schema asks only that a Schema Object be an object or a Boolean;
        // through the dialect, the discriminator's missing propertyName is found.
        #expect(try JSONSchema(openAPIDocument: .openAPI31).isValid(document))
        let result = try JSONSchema(openAPIDocument: .openAPI31WithDialect).validate(document)
        #expect(!result.isValid)
        #expect(result.errors.contains { $0.instanceLocation == "/components/schemas/Pet/discriminator" })
        let wellFormed = try json(#"""
            {"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"},
             "components": {"schemas": {"Pet": {"type": "object", "discriminator": {"propertyName": "kind"}}}}}
            """#)
        #expect(try JSONSchema(openAPIDocument: .openAPI31WithDialect).isValid(wellFormed))
    }

    /// The real descriptions, by the `openapi` version each states.
    static let realDocuments = [
        "json/twilio-oai/twilio_api_v2010.json", "yaml/twilio-oai/twilio_api_v2010.yaml",
        "json/openai-openapi/openapi.json", "yaml/openai-openapi/openapi.yaml",
    ]

    @Test(arguments: realDocuments) func realDocumentsAreValid(_ path: String) throws {
        guard let document = try Self.load(path) else { return }
        let version = try #require(document["openapi"]?.stringValue)
        let kind = try #require(DocumentSchema(openAPIVersion: version), "\(path) states \(version)")
        #expect(kind == (path.contains("twilio") ? .openAPI30 : .openAPI31))
        let result = try JSONSchema(openAPIDocument: kind).validate(document)
        #expect(result.isValid, "\(path): \(result.errors.prefix(5))")
    }

    /// Through the dialect, the OpenAI description's own faults show (python-jsonschema finds the same):
    /// a `required` list naming properties twice, and 3.0's boolean `exclusiveMinimum` in a 3.1 document.
    @Test func theDialectFindsTheOpenAIDescriptionsFaults() throws {
        guard let document = try Self.load("json/openai-openapi/openapi.json") else { return }
        let result = try JSONSchema(openAPIDocument: .openAPI31WithDialect).validate(document)
        #expect(!result.isValid)
        let locations = Set(result.errors.map(\.instanceLocation))
        #expect(locations.contains("/components/schemas/ContainerResource/required"))
        let beta = "/components/schemas/FineTuneDPOHyperparameters/properties/beta"
        #expect(locations.contains(beta + "/oneOf/1/exclusiveMinimum"))
    }

    @Test func pathsAsAnArrayIsNamed() throws {
        for path in ["json/twilio-oai/twilio_api_v2010.json", "json/openai-openapi/openapi.json"] {
            guard let document = try Self.load(path) else { return }
            let kind = try #require(DocumentSchema(openAPIVersion: document["openapi"]?.stringValue ?? ""))
            let broken = Self.replacing("paths", in: document, with: .array([]))
            let result = try JSONSchema(openAPIDocument: kind).validate(broken)
            #expect(!result.isValid)
            #expect(result.errors.contains { $0.instanceLocation == "/paths" }, "\(path): \(result.errors.prefix(5))")
        }
    }

    @Test func anOperationWithoutResponsesIsNamed() throws {
        guard let document = try Self.load("json/twilio-oai/twilio_api_v2010.json") else { return }
        let paths = try #require(document["paths"]?.objectValue)
        let member = try #require(paths.first { $0.value["get"]?["responses"] != nil })
        let operation = try #require(member.value["get"]?.objectValue)
        let withoutResponses = Value.object(Value.Object(operation.filter { $0.key != "responses" }))
        let item = Self.replacing("get", in: member.value, with: withoutResponses)
        let broken = Self.replacing(
            "paths", in: document, with: Self.replacing(member.key, in: .object(paths), with: item))
        let result = try JSONSchema(openAPIDocument: .openAPI30).validate(broken)
        #expect(!result.isValid)
        let pointer = "/paths/" + member.key.replacingOccurrences(of: "~", with: "~0")
            .replacingOccurrences(of: "/", with: "~1") + "/get"
        #expect(result.errors.contains { $0.instanceLocation == pointer }, "\(result.errors.prefix(5))")
    }

    /// The corpus document at `path`, or `nil` (with a message) when the corpus is absent.
    static func load(_ path: String) throws -> Value? {
        guard let directory = documents else {
            print(Corpora.missingMessage("real-world/documents"))
            return nil
        }
        let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(path)))
        return path.hasSuffix(".yaml") ? try YAMLFormat().decode(bytes) : try JSONFormat().decode(bytes)
    }

    /// `object` with member `key`'s value replaced by `value`.
    static func replacing(_ key: String, in object: Value, with value: Value) -> Value {
        guard case .object(let members) = object else { return object }
        return .object(Value.Object(members.map { $0.key == key ? .init(key: key, value: value) : $0 }))
    }
}
