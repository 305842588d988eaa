import Parley
import ParleySchema
import Testing

/// The OpenAPI 3.1 dialect: 2020-12 (type arrays with "null", unevaluatedProperties) plus
/// `discriminator`, picked by the dialect's `$schema` URI or by the caller.
@Suite struct OpenAPI31DialectTests {
    static let document = ##"""
    {"$schema": "https://spec.openapis.org/oas/3.1/dialect/base",
     "oneOf": [{"$ref": "#/$defs/Card"}, {"$ref": "#/$defs/Transfer"}],
     "discriminator": {"propertyName": "method", "mapping": {"card": "#/$defs/Card", "transfer": "#/$defs/Transfer"}},
     "$defs": {
       "Card": {"type": "object", "required": ["number"],
                "properties": {"method": {"const": "card"}, "number": {"type": "string", "pattern": "^[0-9]{16}$"}},
                "unevaluatedProperties": false},
       "Transfer": {"type": "object", "required": ["iban"],
                    "properties": {"method": {"const": "transfer"}, "iban": {"type": ["string", "null"]}}}
     }}
    """##

    @Test func theDialectURIEnablesTheDiscriminator() throws {
        let schema = try JSONSchema(try json(Self.document))
        #expect(try schema.isValid(try json(#"{"method": "card", "number": "4111111111111111"}"#)))
        #expect(try schema.isValid(try json(#"{"method": "transfer", "iban": null}"#)))
        #expect(try !schema.isValid(try json(#"{"method": "card", "number": "4111111111111111", "extra": 1}"#)))
        #expect(try !schema.isValid(try json(#"{"method": "cash"}"#)))
    }

    @Test func plain2020IgnoresTheDiscriminatorAndUsesOneOf() throws {
        let schema = try JSONSchema(try json(Self.document), options: .init(dialect: .draft202012))
        let result = try schema.validate(try json(#"{"method": "cash"}"#))
        #expect(!result.isValid)
        #expect(!result.errors.contains { $0.keywordLocation.hasSuffix("/discriminator") })
        #expect(result.errors.contains { $0.keywordLocation == "/oneOf" })
    }
}
