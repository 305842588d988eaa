import Parley
import ParleySchema
import Testing

/// Errors in the JSON Schema output format, the flag and basic modes, and the limits.
@Suite struct ValidationOutputTests {
    static let schema = #"""
        {"$id": "https://example.com/person",
         "type": "object",
         "properties": {"name": {"type": "string"},
                        "tags": {"type": "array", "items": {"$ref": "#/$defs/tag"}},
                        "a/b~c": {"type": "integer"}},
         "$defs": {"tag": {"type": "string", "maxLength": 3}}}
        """#

    @Test func basicModeReportsEveryFailureWithPointers() throws {
        let schema = try JSONSchema(try json(Self.schema))
        let result = try schema.validate(try json(#"{"name": 5, "tags": ["ok", "toolong", 7], "a/b~c": "x"}"#))
        #expect(!result.isValid)
        let units = result.errors.map { [$0.instanceLocation, $0.keywordLocation, $0.absoluteKeywordLocation] }
        #expect(
            units == [
                ["/name", "/properties/name/type", "https://example.com/person#/properties/name/type"],
                [
                    "/tags/1", "/properties/tags/items/$ref/maxLength",
                    "https://example.com/person#/$defs/tag/maxLength",
                ],
                ["/tags/2", "/properties/tags/items/$ref/type", "https://example.com/person#/$defs/tag/type"],
                ["/a~1b~0c", "/properties/a~1b~0c/type", "https://example.com/person#/properties/a~1b~0c/type"],
            ])
        #expect(result.output["valid"] == false)
        #expect(result.output["errors"]?[0]?["instanceLocation"] == "/name")
    }

    @Test func flagModeStopsAtTheFirstFailure() throws {
        let schema = try JSONSchema(try json(Self.schema))
        let result = try schema.validate(try json(#"{"name": 5, "tags": [7]}"#), options: .init(mode: .flag))
        #expect(result.errors.count == 1)
        #expect(result.errors[0].instanceLocation == "/name")
    }

    @Test func aValidInstanceHasNoErrors() throws {
        let result = try JSONSchema(try json(Self.schema)).validate(try json(#"{"name": "Ada", "tags": ["a"]}"#))
        #expect(result.isValid && result.errors.isEmpty)
        #expect(result.output == ["valid": true])
    }

    @Test func anyOfKeepsOnlyItsOwnErrorWhenNoBranchMatches() throws {
        let schema = try JSONSchema(try json(#"{"anyOf": [{"type": "string"}, {"type": "integer"}]}"#))
        #expect(try schema.validate("x").errors.isEmpty)
        let errors = try schema.validate(true).errors
        #expect(errors.contains { $0.keywordLocation == "/anyOf" })
    }

    @Test func basicModeCapsTheErrorCount() throws {
        var limits = JSONSchema.Limits()
        limits.maxErrors = 5
        let schema = try JSONSchema(["items": ["type": "string"]], options: .init(limits: limits))
        let result = try schema.validate(.array((0..<50).map { .integer($0) }))
        #expect(!result.isValid)
        #expect(result.errors.count == 5)
    }

    @Test func deepInstancesStopAtTheDepthLimit() throws {
        var limits = JSONSchema.Limits()
        limits.maxDepth = 50
        let schema = try JSONSchema(
            try json(##"{"$defs": {"n": {"items": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"}"##),
            options: .init(limits: limits))
        var deep: Value = []
        for _ in 0..<100 { deep = [deep] }
        let error = #expect(throws: SchemaError.self) { try schema.validate(deep) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxDepth")
    }

    @Test func totalWorkIsBounded() throws {
        var limits = JSONSchema.Limits()
        limits.maxWork = 1_000
        let schema = try JSONSchema(["items": ["type": "integer"]], options: .init(limits: limits))
        let error = #expect(throws: SchemaError.self) { try schema.validate(.array((0..<5_000).map { .integer($0) })) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxWork")
    }

    @Test func unresolvedReferencesFailToCompile() throws {
        let error = #expect(throws: SchemaError.self) { try JSONSchema(["$ref": "https://elsewhere.example/x.json"]) }
        #expect(error?.code == .unresolvedReference)
        let pointer = #expect(throws: SchemaError.self) { try JSONSchema(["$ref": "#/$defs/missing"]) }
        #expect(pointer?.code == .unresolvedReference)
    }

    @Test func invalidSchemasFailToCompileWithALocation() throws {
        let error = #expect(throws: SchemaError.self) { try JSONSchema(["properties": ["a": ["minLength": -1]]]) }
        #expect(error?.code == .invalidSchema)
        #expect(error?.schemaLocation?.hasSuffix("#/properties/a/minLength") == true)
    }

    static let orderSchema = #"""
        {"type": "object", "required": ["id", "sku", "id"],
         "properties": {"id": {"type": "integer"}, "sku": {"type": "string"}, "note": {"type": "string"}}}
        """#

    @Test func requiredFailuresComeBeforeTheMembersFailures() throws {
        let schema = try JSONSchema(try json(Self.orderSchema))
        let instance = try json(#"{"note": 5, "sku": "A"}"#)
        let errors = try schema.validate(instance).errors.map(\.keywordLocation)
        #expect(errors == ["/required", "/required", "/properties/note/type"])
        let flag = try schema.validate(instance, options: .init(mode: .flag)).errors.map(\.keywordLocation)
        #expect(flag == ["/required"])
        #expect(try !schema.isValid(instance))
        #expect(try !schema.isValid(try json(#"{"sku": "A", "sku": "B"}"#)))
        #expect(try schema.isValid(try json(#"{"sku": "A", "id": 1}"#)))
    }

    @Test func aMissingRequiredNameFailsBeforeAMemberExceedsALimit() throws {
        var limits = JSONSchema.Limits()
        limits.maxDepth = 2
        let text = #"{"required": ["a", "b"], "properties": {"a": {"properties": {"x": {"type": "string"}}}}}"#
        let schema = try JSONSchema(try json(text), options: .init(limits: limits))
        #expect(try !schema.isValid(try json(#"{"a": {"x": 1}}"#)))
        #expect(throws: SchemaError.self) { try schema.isValid(try json(#"{"a": {"x": 1}, "b": 1}"#)) }
    }
}
