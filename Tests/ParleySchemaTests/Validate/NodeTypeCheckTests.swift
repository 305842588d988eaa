import Parley
import ParleyJSON
import ParleySchema
import Testing

/// A node whose first keyword is `type` checks it in its own pass instead of as a step; a `type`
/// after a `$ref` is still a step. Both must give the same verdicts and the same errors, on a
/// `Value` and on a JSON text's tape alike.
@Suite struct NodeTypeCheckTests {
    static let types: [String] = [
        #""null""#, #""boolean""#, #""integer""#, #""number""#, #""string""#, #""array""#, #""object""#,
        #"["integer", "string"]"#, #"["null", "boolean", "array"]"#, #"["number", "object"]"#, "[]",
    ]

    /// One of each kind, and numbers on each side of the integer line (a whole float, number text).
    static let elements = #"""
        [null, true, false, 0, -7, 1.0, 1.5, 2e3, 1e400, 123456789012345678901234567890, "", "text",
         "\u00e9", [], [1], {}, {"a": 1}]
        """#

    /// The errors as comparable strings.
    static func describe(_ errors: [ValidationError]) -> [String] {
        errors.map { "\($0.instanceLocation) \($0.keywordLocation) \($0.absoluteKeywordLocation) \($0.message)" }
    }

    /// (Draft 4 and OpenAPI 3.0 have no `type` after another keyword: their `$ref` hides its siblings.)
    @Test(arguments: [JSONSchema.Dialect.draft202012, .openAPI31])
    func ownPassAgreesWithTheStep(dialect: JSONSchema.Dialect) throws {
        let text = Array(Self.elements.utf8)
        let instance = try JSONFormat().decode(text).resolved()
        let mediaType = try MediaType(parsing: "application/json")
        let tape = try #require(try JSONFormat().tape(of: text, mediaType: mediaType, limits: DecodingLimits()))
        let options = JSONSchema.Options(dialect: dialect)
        for type in Self.types {
            let ownPass = try JSONSchema(
                try JSONFormat().decode(Array(#"{"items": {"type": \#(type)}}"#.utf8)), options: options)
            let stepText = ##"{"$defs": {"any": true}, "items": {"$ref": "#/$defs/any", "type": \##(type)}}"##
            let step = try JSONSchema(try JSONFormat().decode(Array(stepText.utf8)), options: options)
            for mode in [JSONSchema.OutputMode.basic, .flag] {
                let validation = JSONSchema.ValidationOptions(mode: mode)
                let expected = try step.validate(instance, options: validation)
                let actual = try ownPass.validate(instance, options: validation)
                #expect(actual.isValid == expected.isValid, "\(type) \(mode)")
                #expect(Self.describe(actual.errors) == Self.describe(expected.errors), "\(type) \(mode)")
                let onTape = try ownPass.isValid(JSONTapeInstance(tape), options: validation)
                #expect(onTape == expected.isValid, "\(type) \(mode) on the tape")
                #expect(try step.isValid(JSONTapeInstance(tape), options: validation) == expected.isValid)
            }
            // Each element alone, so a verdict per kind is compared (the array fails on any one).
            guard case .array(let values) = instance else { continue }
            for (position, value) in values.enumerated() {
                let single = try JSONFormat().encode(value)
                let expected = try step.validate(.array([value]))
                #expect(try ownPass.validate(.array([value])).isValid == expected.isValid, "\(type) #\(position)")
                let wrapped = Array("[".utf8) + single + Array("]".utf8)
                let wrappedTape = try #require(
                    try JSONFormat().tape(of: wrapped, mediaType: mediaType, limits: DecodingLimits()))
                #expect(try ownPass.isValid(JSONTapeInstance(wrappedTape)) == expected.isValid,
                        "\(type) #\(position) on the tape")
            }
        }
    }
}
