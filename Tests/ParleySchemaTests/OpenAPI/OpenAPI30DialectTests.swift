import Parley
import ParleySchema
import Testing

/// The OpenAPI 3.0 Schema Object: draft 4 plus `nullable`, boolean exclusive bounds,
/// `discriminator`, `readOnly`/`writeOnly` by direction, and `$ref` hiding its siblings.
@Suite struct OpenAPI30DialectTests {
    let options = JSONSchema.Options(dialect: .openAPI30)

    func valid(_ schema: Value, _ instance: Value, direction: JSONSchema.Direction? = nil) throws -> Bool {
        let compiled = try JSONSchema(schema, options: options)
        let result = try compiled.validate(instance, options: .init(direction: direction))
        #expect(try compiled.isValid(instance, options: .init(direction: direction)) == result.isValid)
        return result.isValid
    }

    @Test func nullableAddsNullToTheType() throws {
        let schema = try json(#"{"type": "string", "nullable": true}"#)
        #expect(try valid(schema, nil))
        #expect(try valid(schema, "a"))
        #expect(try !valid(schema, 5))
        #expect(try !valid(try json(#"{"type": "string"}"#), nil))
    }

    @Test func nullableWithEnumStillNeedsNullInTheEnum() throws {
        let without = try json(#"{"type": "string", "nullable": true, "enum": ["a", "b"]}"#)
        #expect(try !valid(without, nil))
        #expect(try valid(without, "a"))
        let with = try json(#"{"type": "string", "nullable": true, "enum": ["a", null]}"#)
        #expect(try valid(with, nil))
    }

    @Test func nullableWithoutTypeChangesNothing() throws {
        #expect(try valid(try json(#"{"nullable": false}"#), nil))
        #expect(try valid(try json(#"{"nullable": true, "minLength": 1}"#), nil))
    }

    @Test func booleanExclusiveBounds() throws {
        let schema = try json(
            #"{"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 10, "exclusiveMaximum": true}"#)
        #expect(try !valid(schema, 0))
        #expect(try valid(schema, 0.5))
        #expect(try valid(schema, 9.99))
        #expect(try !valid(schema, 10))
        let inclusive = try json(#"{"minimum": 0, "exclusiveMinimum": false}"#)
        #expect(try valid(inclusive, 0))
    }

    static let petDocument = #"""
        {
          "components": {"schemas": {
            "Pet": {
              "type": "object", "required": ["petType"],
              "properties": {"petType": {"type": "string"}, "name": {"type": "string"}},
              "discriminator": {"propertyName": "petType"}
            },
            "Cat": {"allOf": [{"$ref": "#/components/schemas/Pet"},
                              {"type": "object", "required": ["huntingSkill"],
                               "properties": {"huntingSkill": {"type": "string", "enum": ["lazy", "adventurous"]}}}]},
            "Dog": {"allOf": [{"$ref": "#/components/schemas/Pet"},
                              {"type": "object", "required": ["packSize"],
                               "properties": {"packSize": {"type": "integer", "minimum": 0}}}]},
            "PetByMapping": {
              "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
              "discriminator": {"propertyName": "kind", "mapping": {"cat": "#/components/schemas/Cat", "dog": "Dog"}}
            }
          }}
        }
        """#

    func petSchema(_ name: String) throws -> JSONSchema {
        var resources = SchemaResources()
        resources.register(try json(Self.petDocument), at: "https://example.com/pets.json")
        let options = JSONSchema.Options(dialect: .openAPI30, resources: resources)
        return try JSONSchema(
            ["$ref": .string("https://example.com/pets.json#/components/schemas/\(name)")], options: options)
    }

    @Test func discriminatorWithoutMappingSelectsBySchemaName() throws {
        let pet = try petSchema("Pet")
        #expect(try pet.isValid(try json(#"{"petType": "Cat", "huntingSkill": "lazy"}"#)))
        #expect(try !pet.isValid(try json(#"{"petType": "Cat", "packSize": 3}"#)))
        #expect(try pet.isValid(try json(#"{"petType": "Dog", "packSize": 3}"#)))
        #expect(try !pet.isValid(try json(#"{"petType": "Dog", "packSize": -1}"#)))
    }

    @Test func aDiscriminatorValueThatSelectsNoSchemaIsInvalid() throws {
        let pet = try petSchema("Pet")
        let result = try pet.validate(try json(#"{"petType": "Lizard"}"#))
        #expect(!result.isValid)
        #expect(result.errors.contains { $0.keywordLocation.hasSuffix("/discriminator") })
        #expect(try !pet.isValid(try json(#"{"name": "no type"}"#)))
    }

    @Test func discriminatorWithMappingSelectsThroughTheMapping() throws {
        let pet = try petSchema("PetByMapping")
        #expect(try pet.isValid(try json(#"{"kind": "cat", "petType": "Cat", "huntingSkill": "adventurous"}"#)))
        #expect(try pet.isValid(try json(#"{"kind": "dog", "petType": "Dog", "packSize": 1}"#)))
        // The mapping, not the oneOf members' own checks, decides: a cat body under "dog" fails.
        #expect(try !pet.isValid(try json(#"{"kind": "dog", "petType": "Dog", "huntingSkill": "lazy"}"#)))
        #expect(try !pet.isValid(try json(#"{"kind": "bird", "petType": "Cat", "huntingSkill": "lazy"}"#)))
    }

    static let account = #"""
        {"type": "object", "required": ["id", "password", "name"],
         "properties": {"id": {"type": "integer", "readOnly": true},
                        "password": {"type": "string", "writeOnly": true},
                        "name": {"type": "string"}}}
        """#

    @Test func readOnlyPropertiesMayNotBeSentInARequest() throws {
        let schema = try json(Self.account)
        #expect(try valid(schema, try json(#"{"password": "s3cret", "name": "Ada"}"#), direction: .request))
        #expect(try !valid(schema, try json(#"{"id": 1, "password": "s3cret", "name": "Ada"}"#), direction: .request))
    }

    @Test func writeOnlyPropertiesMayNotBeSentInAResponse() throws {
        let schema = try json(Self.account)
        #expect(try valid(schema, try json(#"{"id": 1, "name": "Ada"}"#), direction: .response))
        #expect(try !valid(schema, try json(#"{"id": 1, "password": "x", "name": "Ada"}"#), direction: .response))
        // Without a direction, both apply as plain required properties.
        #expect(try !valid(schema, try json(#"{"id": 1, "name": "Ada"}"#)))
    }

    @Test func refHidesItsSiblings() throws {
        let schema = try json(
            #"""
            {"definitions": {"n": {"type": "integer"}},
             "properties": {"a": {"$ref": "#/definitions/n", "maximum": 1}}}
            """#)
        #expect(try valid(schema, try json(#"{"a": 100}"#)))
        #expect(try !valid(schema, try json(#"{"a": "x"}"#)))
    }

    @Test func openAPIFormatsAssertWhenAsked() throws {
        let options = JSONSchema.Options(dialect: .openAPI30, formatAssertion: true)
        let int32 = try JSONSchema(try json(#"{"type": "integer", "format": "int32"}"#), options: options)
        #expect(try int32.isValid(2_147_483_647))
        #expect(try !int32.isValid(2_147_483_648))
        let byte = try JSONSchema(try json(#"{"type": "string", "format": "byte"}"#), options: options)
        #expect(try byte.isValid("aGVsbG8="))
        #expect(try !byte.isValid("not base64!"))
        let annotation = try JSONSchema(
            try json(#"{"type": "string", "format": "byte"}"#),
            options: .init(dialect: .openAPI30))
        #expect(try annotation.isValid("not base64!"))
    }
}
