import Parley
import ParleySchema
import Testing

/// Numbers compare and divide in decimal: no binary rounding, big integers and `Value.number` text exact.
@Suite struct ExactNumberTests {
    @Test(arguments: [
        (Value.float(19.99), true), (.number("19.990"), true), (.float(19.999), false), (.integer(20), true),
        (.number("123456789012345678901234567890.01"), true), (.number("1e-3"), false),
    ])
    func multipleOfIsDecimal(_ instance: Value, _ expected: Bool) throws {
        let schema = try JSONSchema(["multipleOf": 0.01])
        #expect(try schema.isValid(instance) == expected)
    }

    @Test func bigIntegersCompareExactly() throws {
        let schema = try JSONSchema(["maximum": .number("18446744073709551615")])
        #expect(try schema.isValid(.number("18446744073709551615")))
        #expect(try !schema.isValid(.number("18446744073709551616")))
        #expect(try schema.isValid(.integer(.max)))
        let integer = try JSONSchema(["type": "integer"])
        #expect(try integer.isValid(.number("100000000000000000000000000")))
        #expect(try integer.isValid(.float(1.0)))
        #expect(try !integer.isValid(.number("1.5")))
    }

    @Test func limitsBetweenDoublesAreExact() throws {
        let schema = try JSONSchema(["exclusiveMaximum": .number("0.30000000000000000001")])
        #expect(try schema.isValid(.float(0.3)))
        #expect(try !schema.isValid(.number("0.30000000000000000001")))
    }

    @Test func equalityIgnoresTheNumbersRepresentation() throws {
        let schema = try JSONSchema(["enum": [1, "a"]])
        #expect(try schema.isValid(.float(1.0)))
        #expect(try schema.isValid(.number("1.000")))
        #expect(try !schema.isValid(.bool(true)))
        let unique = try JSONSchema(["uniqueItems": true])
        #expect(try !unique.isValid([1, .float(1.0)]))
        #expect(try !unique.isValid(.array((0..<1_000).map { .integer($0) } + [.number("999")])))
        #expect(try unique.isValid(.array((0..<1_000).map { .integer($0) })))
    }

    @Test func coercionReadsTextAsTheSchemasType() throws {
        let schema = try JSONSchema([
            "type": "object",
            "properties": [
                "n": ["type": "integer", "minimum": 5], "b": ["type": "boolean"], "x": ["type": ["number", "null"]],
            ],
        ])
        let coerce = JSONSchema.ValidationOptions(coercesStrings: true)
        #expect(try schema.isValid(["n": "5", "b": "true", "x": "2.5"], options: coerce))
        #expect(try schema.isValid(["x": ""], options: coerce))
        #expect(try !schema.isValid(["n": "4"], options: coerce))
        #expect(try !schema.isValid(["n": "5.5"], options: coerce))
        #expect(try !schema.isValid(["b": "yes"], options: coerce))
        #expect(try !schema.isValid(["n": "5"]))
    }
}
