import Parley
import ParleyCSV
import ParleyMessagePack
import ParleySchema
import ParleyXML
import ParleyYAML
import Testing

/// One OpenAPI 3.0 schema checked against the same record decoded from YAML, XML (text scalars
/// coerced by the schema's types), CSV (likewise) and MessagePack.
@Suite struct SchemasAcrossFormatsTests {
    static let order = #"""
        {"type": "object", "required": ["id", "quantity", "price", "gift"],
         "properties": {
           "id": {"type": "integer", "format": "int64", "minimum": 1},
           "quantity": {"type": "integer", "minimum": 1, "maximum": 100},
           "price": {"type": "number", "multipleOf": 0.01, "exclusiveMinimum": true, "minimum": 0},
           "gift": {"type": "boolean"},
           "note": {"type": "string", "nullable": true, "maxLength": 20}
         }}
        """#

    func schema() throws -> JSONSchema {
        try JSONSchema(try json(Self.order), options: .init(dialect: .openAPI30, formatAssertion: true))
    }

    @Test func yamlValuesValidateAsTheyAre() throws {
        let good = try YAMLFormat().decode(Array("id: 7\nquantity: 2\nprice: 19.99\ngift: false\nnote: ~\n".utf8))
        #expect(try schema().isValid(good))
        let bad = try YAMLFormat().decode(Array("id: 7\nquantity: 200\nprice: 19.999\ngift: no-idea\n".utf8))
        let result = try schema().validate(bad)
        #expect(Set(result.errors.map(\.instanceLocation)) == ["/quantity", "/price", "/gift"])
    }

    @Test func xmlTextIsCoercedByTheSchemasTypes() throws {
        let document = "<order><id>7</id><quantity>2</quantity><price>19.99</price><gift>true</gift></order>"
        let value = try XMLFormat().decode(Array(document.utf8))
        let order = try #require(value["order"])
        #expect(try !schema().isValid(order))  // every scalar is a string without coercion
        #expect(try schema().isValid(order, options: .init(coercesStrings: true)))
        let bad = try XMLFormat().decode(
            Array("<order><id>x7</id><quantity>2</quantity><price>1.005</price><gift>true</gift></order>".utf8))
        let result = try schema().validate(try #require(bad["order"]), options: .init(coercesStrings: true))
        #expect(Set(result.errors.map(\.instanceLocation)) == ["/id", "/price"])
    }

    @Test func csvRecordsAreCoercedByTheSchemasTypes() throws {
        let rows = try CSVFormat().decode(
            Array("id,quantity,price,gift\r\n7,2,19.99,false\r\n8,0,5,true\r\n".utf8),
            as: "text/csv;header=present")
        let list = try JSONSchema(
            ["type": "array", "items": try json(Self.order)],
            options: .init(dialect: .openAPI30))
        let result = try list.validate(rows, options: .init(coercesStrings: true))
        #expect(result.errors.map(\.instanceLocation) == ["/1/quantity"])
    }

    @Test func messagePackValuesValidateAsTheyAre() throws {
        let record: Value = ["id": 7, "quantity": 2, "price": 19.99, "gift": true, "note": "for Ada"]
        let decoded = try MessagePackFormat().decode(try MessagePackFormat().encode(record))
        #expect(try schema().isValid(decoded))
        let tooLong: Value = [
            "id": 7, "quantity": 2, "price": 19.99, "gift": true, "note": "a note far longer than twenty",
        ]
        #expect(try !schema().isValid(try MessagePackFormat().decode(try MessagePackFormat().encode(tooLong))))
    }
}
