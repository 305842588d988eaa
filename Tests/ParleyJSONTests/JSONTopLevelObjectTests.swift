import Parley
import ParleyJSON
import Testing

/// `JSONTopLevelObject` reads the members of a document's top-level object from its tape; what
/// it reads must be what `JSONFormat.decode(_:)` gives for the same text, errors included.
@Suite struct JSONTopLevelObjectTests {
    let json = JSONFormat()

    func object(_ text: String) throws -> JSONTopLevelObject? {
        try Array(text.utf8).withUnsafeBytes { try JSONTopLevelObject(parsing: $0, with: json) }
    }

    func decodedObject(_ text: String) throws -> Value.Object? {
        guard case .object(let object) = try json.decode(Array(text.utf8)) else { return nil }
        return object
    }

    @Test func readsStringsAsTheDecodedValueHoldsThem() throws {
        let texts = [#"{"a": "plain", "b": "esc\"aped\u00e9", "c": null, "d": 1, "e": ["x", "y\n"], "f": ["x", 1], "g": []}"#,
                     #"{"a": "first", "a": "last"}"#, #"{"a": "x", "a": null}"#, #"{"\u0061": "escaped key"}"#]
        for text in texts {
            let object = try #require(try object(text))
            let decoded = try #require(try decodedObject(text))
            for key in ["a", "b", "c", "d", "e", "f", "g", "h"] {
                let member = object[key]
                let value = decoded[key]
                #expect((member != nil) == (value != nil), "\(key) in \(text)")
                #expect(member?.isNull == value.map { $0 == .null }, "\(key) in \(text)")
                let string: String? = if case .string(let text)? = value { text } else { nil }
                #expect(member?.string == string, "\(key) in \(text)")
                #expect(member?.withStringBytes { String(decoding: $0, as: UTF8.self) } == string, "\(key) in \(text)")
                let strings: [String]? = if case .array(let elements)? = value {
                    elements.allSatisfy { if case .string = $0 { true } else { false } }
                        ? elements.map { if case .string(let text) = $0 { text } else { "" } } : nil
                } else { nil }
                #expect(member?.strings == strings, "\(key) in \(text)")
            }
        }
    }

    @Test func literalKeysFindTheSameMembers() throws {
        let object = try #require(try object(#"{"a": "x", "b": ["y"], "a": "z", "\u0063": null}"#))
        let keys: [(StaticString, String)] = [("a", "a"), ("b", "b"), ("c", "c"), ("d", "d")]
        for (literal, key) in keys {
            #expect(object[literal]?.string == object[key]?.string, "\(key)")
            #expect(object[literal]?.strings == object[key]?.strings, "\(key)")
            #expect(object[literal]?.isNull == object[key]?.isNull, "\(key)")
        }
        #expect(object["a" as StaticString]?.string == "z")
    }

    @Test func otherTopLevelValuesAreNotObjects() throws {
        for text in ["[]", #""x""#, "1", "null", "true"] {
            #expect(try object(text) == nil, "\(text)")
        }
    }

    @Test func throwsTheDecodersErrors() throws {
        for text in ["", "{", #"{"a": 1} x"#, #"{"a": "\ud800"}"#, "{\"a\": \"\u{1}\"}", "[1,]"] {
            var decodeError: FormatError?
            do { _ = try json.decode(Array(text.utf8)) } catch { decodeError = error as? FormatError }
            var readError: FormatError?
            do { _ = try object(text) } catch { readError = error as? FormatError }
            #expect(decodeError != nil, "\(text)")
            #expect(readError.map { "\($0)" } == decodeError.map { "\($0)" }, "\(text)")
        }
    }
}
