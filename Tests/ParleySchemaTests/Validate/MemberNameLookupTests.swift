import Parley
import ParleySchema
import Testing

/// A member name read from a JSON text's tape is found among a schema's properties from its bytes
/// (a hashed table of the ASCII names) and a `pattern` is matched on a string's bytes; both give
/// the verdicts `String` equality and matching give on the decoded value.
@Suite struct MemberNameLookupTests {
    /// `text`'s verdict on its tape, after requiring the decoded value to give the same.
    static func verdict(_ schema: JSONSchema, _ text: String) throws -> Bool? {
        let (tape, value) = try JSONTapeInstanceTests.verdicts(
            schema, Array(text.utf8), JSONSchema.ValidationOptions())
        #expect(tape == value, "\(text)")
        return tape
    }

    @Test func findsNamesOfEveryLengthAmongManyProperties() throws {
        let names = ["", "a", "K", "id", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmnop",
                     "abcdefghijklmnopq", "abcdefghijklmnopr", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"]
        let properties = names.map { "\"\($0)\": {\"type\": \"integer\"}" }.joined(separator: ", ")
        let schema = try JSONSchema(json("{\"properties\": {\(properties)}, \"additionalProperties\": false}"))
        for name in names {
            #expect(try Self.verdict(schema, "{\"\(name)\": 1}") == true, "\(name)")
            #expect(try Self.verdict(schema, "{\"\(name)\": \"x\"}") == false, "\(name)")
        }
        let cases: [(String, Bool)] = [
            ("{\"abcdefgi\": 1}", false), ("{\"abcdefghijklmnopz\": 1}", false), ("{\"b\": 1}", false),
            // Escaped keys are compared as strings: "\u0061" is "a".
            ("{\"\\u0061\": 1}", true), ("{\"\\u0061\": \"x\"}", false), ("{\"a\\u0062\": 1}", false),
            // U+212A KELVIN SIGN equals "K" as a string, raw or escaped.
            ("{\"\u{212A}\": 1}", true), ("{\"\u{212A}\": \"x\"}", false), ("{\"\\u212a\": \"x\"}", false),
            ("{\"id\": 1, \"a\": 2, \"abcdefghijklmnopq\": 3}", true), ("{\"id\": 1, \"c\": 2}", false),
        ]
        for (text, valid) in cases { #expect(try Self.verdict(schema, text) == valid, "\(text)") }
    }

    @Test func comparesWithNamesThatAreNotASCIIAsStrings() throws {
        let schema = try JSONSchema(json("""
            {"properties": {"\u{212A}ey": {"type": "integer"}, "\u{E9}": {"type": "integer"},
             "p1": {}, "p2": {}, "p3": {}, "p4": {}, "p5": {}, "p6": {}, "p7": {}, "p8": {}},
             "additionalProperties": false}
            """))
        let cases: [(String, Bool)] = [
            ("{\"Key\": 1}", true), ("{\"Key\": \"x\"}", false), ("{\"e\u{301}\": 1}", true),
            ("{\"\\u00e9\": \"x\"}", false), ("{\"p8\": \"x\"}", true), ("{\"p9\": 1}", false),
        ]
        for (text, valid) in cases { #expect(try Self.verdict(schema, text) == valid, "\(text)") }
    }

    @Test func marksRequiredNamesAmongManyPropertiesAsItFindsThem() throws {
        let properties = (1...12).map { "\"p\($0)\": {\"type\": \"integer\"}" }.joined(separator: ", ")
        let schema = try JSONSchema(json("{\"required\": [\"p12\", \"p1\"], \"properties\": {\(properties)}}"))
        let cases: [(String, Bool)] = [
            ("{\"p1\": 1, \"p12\": 2}", true), ("{\"p1\": 1}", false), ("{\"p12\": 1, \"p3\": 1}", false),
            ("{\"p1\": 1, \"p12\": \"x\"}", false), ("{\"p1\": 1, \"\\u0070\\u0031\\u0032\": 1}", true),
            ("{\"p1\": 1, \"p12\": 2, \"other\": \"x\"}", true),
        ]
        for (text, valid) in cases { #expect(try Self.verdict(schema, text) == valid, "\(text)") }
    }

    @Test func matchesPatternsOnStringBytesAsOnStrings() throws {
        let schema = try JSONSchema(json("""
            {"properties": {"sku": {"pattern": "^[A-Z]{3}-[0-9]{4}$"}, "code": {"pattern": "[0-9]{2}"}}}
            """))
        let cases: [(String, Bool)] = [
            ("{\"sku\": \"ABC-1234\"}", true), ("{\"sku\": \"ABC-123\"}", false), ("{\"sku\": \"xABC-1234\"}", false),
            ("{\"sku\": \"\\u0041BC-1234\"}", true), ("{\"sku\": \"\u{C0}BC-1234\"}", false),
            ("{\"code\": \"ab12\"}", true), ("{\"code\": \"a1b2\"}", false), ("{\"code\": \"\u{E9}12\"}", true),
            ("{\"sku\": 12}", true),
        ]
        for (text, valid) in cases { #expect(try Self.verdict(schema, text) == valid, "\(text)") }
    }
}
