import Foundation
import Parley
import ParleyJSON
import ParleySchema
import ParleyTestKit
import Testing

/// Validation read from a JSON text's tape (``JSONTapeInstance``) gives the verdict validation of
/// the text's decoded `Value` gives, over the whole JSON-Schema-Test-Suite and on the cases where
/// reading members as bytes could differ from comparing them as strings.
@Suite struct JSONTapeInstanceTests {
    /// The text's verdicts on its tape and on its decoded value holding its members, under
    /// `options`; `nil` for a throw. Also requires the decoded value as it comes (its objects
    /// build their members from the tape, where validation reads them) to give the tape's verdict.
    static func verdicts(_ schema: JSONSchema, _ text: [UInt8], _ options: JSONSchema.ValidationOptions)
        throws -> (tape: Bool?, value: Bool?)
    {
        let mediaType = try MediaType(parsing: "application/json")
        let tape = try #require(try JSONFormat().tape(of: text, mediaType: mediaType, limits: DecodingLimits()))
        // Resolved: the value holds its members, so the Value path never reads the tape.
        let value = try JSONFormat().decode(text).resolved()
        let onTape = try? schema.isValid(JSONTapeInstance(tape), options: options)
        let decoded = try JSONFormat().decode(text)
        #expect((try? schema.isValid(decoded, options: options)) == onTape)
        return (onTape, try? schema.isValid(value, options: options))
    }

    @Test func agreesWithTheValuePathOnTheSuite() throws {
        guard JSONSchemaTestSuiteTests.directory != nil else {
            print(Corpora.missingMessage("json-schema-test-suite"))
            return
        }
        var compared = 0
        for file in JSONSchemaTestSuiteTests.files { compared += try Self.compare(file) }
        print("JSONTapeInstance: \(compared) verdicts agree with the Value path")
        #expect(compared > 5_000)
    }

    /// Compares the verdicts on every test of a suite file; how many it compared.
    static func compare(_ file: String) throws -> Int {
        let directory = try #require(JSONSchemaTestSuiteTests.directory)
        let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
        guard case .array(let groups) = try JSONFormat().decode(bytes) else { return 0 }
        let options = JSONSchema.Options(
            dialect: file.hasPrefix("draft4") ? .draft4 : nil, formatAssertion: file.contains("/format/"),
            resources: JSONSchemaTestSuiteTests.resources)
        var compared = 0
        for group in groups {
            guard let schema = try? JSONSchema(group["schema"] ?? .bool(true), options: options) else { continue }
            for test in group["tests"]?.arrayValue ?? [] {
                guard let instance = test["data"] else { continue }
                let text = try JSONFormat().encode(instance)
                for validation in [JSONSchema.ValidationOptions(), .init(direction: .request, coercesStrings: true)] {
                    let (tape, value) = try verdicts(schema, text, validation)
                    #expect(tape == value, "\(file) | \(test["description"]?.stringValue ?? "?")")
                    compared += 1
                }
            }
        }
        return compared
    }

    @Test func readsMemberNamesAsStringEqualityDoes() throws {
        // U+212A KELVIN SIGN is canonically equivalent to "K": as strings "\u{212A}ey" is "Key".
        let schema = try JSONSchema(json("""
            {"properties": {"Key": {"type": "integer"}, "é": {"type": "integer"}}, "additionalProperties": false}
            """))
        for text in ["{\"\u{212A}ey\": \"x\"}", "{\"\u{212A}ey\": 1}", "{\"Key\": 1, \"é\": \"x\"}",
                     "{\"e\u{301}\": \"x\"}", "{\"e\u{301}\": 1}", "{\"Kex\": 1}", "{}"] {
            let (tape, value) = try Self.verdicts(schema, Array(text.utf8), JSONSchema.ValidationOptions())
            #expect(tape != nil)
            #expect(tape == value, "\(text)")
        }
    }

    @Test func countsStringLengthsInCodePointsAsTheValuePathDoes() throws {
        // Counted in the tape's bytes when the string has no escape, from its String when it has:
        // "é" is 2 UTF-8 bytes, "😀" 4 bytes (and 2 UTF-16 units), "e\u{301}" 2 code points, 1 character.
        let schema = try JSONSchema(json("""
            {"type": "string", "minLength": 2, "maxLength": 3}
            """))
        let cases: [(String, Bool)] = [
            ("\"é\"", false), ("\"éé\"", true), ("\"😀😀😀\"", true), ("\"😀😀😀😀\"", false),
            ("\"e\u{301}\"", true), ("\"\\u00e9\"", false), ("\"\\ud83d\\ude00\\u00e9\"", true),
            ("\"ab\\ncd\"", false), ("\"abcd\"", false), ("\"\"", false),
        ]
        for (text, valid) in cases {
            let (tape, value) = try Self.verdicts(schema, Array(text.utf8), JSONSchema.ValidationOptions())
            #expect(tape == valid, "\(text)")
            #expect(value == valid, "\(text)")
        }
    }

    @Test func findsInvalidMembersDeepInTheText() throws {
        let schema = try JSONSchema(json("""
            {"type": "array", "items": {"type": "object", "required": ["id"],
             "properties": {"id": {"type": "integer", "minimum": 1}, "tags": {"type": "array",
              "items": {"type": "string", "pattern": "^[a-z]+$"}, "uniqueItems": true}}}}
            """))
        let cases: [(String, Bool)] = [
            ("[{\"id\": 1, \"tags\": [\"a\", \"b\"]}, {\"id\": 2}]", true),
            ("[{\"id\": 1, \"tags\": [\"a\", \"a\"]}]", false),
            ("[{\"id\": 1, \"tags\": [\"a\", \"B\"]}]", false),
            ("[{\"id\": 0}]", false),
            ("[{\"id\": 1.0}]", true),
            ("[{\"tags\": []}]", false),
            ("[{\"id\": 123456789012345678901234567890}]", true),
        ]
        for (text, expected) in cases {
            let (tape, value) = try Self.verdicts(schema, Array(text.utf8), JSONSchema.ValidationOptions())
            #expect(tape == expected, "\(text)")
            #expect(value == expected, "\(text)")
        }
    }
}
