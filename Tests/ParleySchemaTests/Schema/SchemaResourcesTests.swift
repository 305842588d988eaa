import Foundation
import Parley
import ParleyJSON
import ParleySchema
import Testing

/// Other documents come only from what the caller registers: a map of URIs, or a folder under a prefix.
@Suite struct SchemaResourcesTests {
    @Test func registeredDocumentsResolveByURI() throws {
        var resources = SchemaResources()
        resources.register(["$defs": ["id": ["type": "integer"]]], at: "https://example.com/common.json")
        let schema = try JSONSchema(
            [
                "$id": "https://example.com/api/order.json",
                "properties": ["id": ["$ref": "../common.json#/$defs/id"]],
            ],
            options: .init(resources: resources))
        #expect(try schema.isValid(["id": 5]))
        #expect(try !schema.isValid(["id": "5"]))
    }

    @Test func foldersAreServedUnderAPrefix() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("types"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"type": "string", "minLength": 2}"#.utf8).write(
            to: folder.appendingPathComponent("types/name.json"))
        var resources = SchemaResources()
        resources.serve(folder: folder.path, under: "https://schemas.example/") { try JSONFormat().decode($0) }
        let schema = try JSONSchema(
            ["$ref": "https://schemas.example/types/name.json"], options: .init(resources: resources))
        #expect(try schema.isValid("Ada"))
        #expect(try !schema.isValid("A"))
        let missing = #expect(throws: SchemaError.self) {
            try JSONSchema(
                ["$ref": "https://schemas.example/types/../../etc/passwd"], options: .init(resources: resources))
        }
        #expect(missing?.code == .unresolvedReference)
    }

    @Test func theSchemaKeywordPicksTheDialectUnlessTheCallerDoes() throws {
        let draft4 = try json(
            #"{"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 5, "exclusiveMaximum": true}"#)
        #expect(try !JSONSchema(draft4).isValid(5))
        // Read as 2020-12, a Boolean exclusiveMaximum is not a number: the schema is invalid.
        #expect(throws: SchemaError.self) { try JSONSchema(draft4, options: .init(dialect: .draft202012)) }
    }

    @Test func theMetaSchemasAreBundled() throws {
        let metaSchema = try JSONSchema(["$ref": "https://json-schema.org/draft/2020-12/schema"])
        #expect(try metaSchema.isValid(try json(#"{"type": "object", "properties": {"a": {"minLength": 1}}}"#)))
        #expect(try !metaSchema.isValid(try json(#"{"type": "objekt"}"#)))
        let draft4 = try JSONSchema(
            ["$ref": "http://json-schema.org/draft-04/schema#"], options: .init(dialect: .draft4))
        #expect(try !draft4.isValid(try json(#"{"minLength": -1}"#)))
    }
}
