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
        let texts = [
            #"{"a": "plain", "b": "esc\"aped\u00e9", "c": null, "d": 1, "e": ["x", "y\n"], "f": ["x", 1], "g": []}"#,
            #"{"a": "first", "a": "last"}"#, #"{"a": "x", "a": null}"#, #"{"\u0061": "escaped key"}"#
        ]
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

    /// `withStringMember` finds what `self[key]` finds, and hands out the same bytes.
    @Test func withStringMemberSaysWhatTheMemberIs() throws {
        let object = try #require(try object(#"{"a": "x\u00e9", "b": null, "c": 1, "d": ["y"], "a": "last", "e": ""}"#))
        let keys: [StaticString] = ["a", "b", "c", "d", "e", "f"]
        for key in keys {
            var bytes: String?
            let found = object.withStringMember(key) { bytes = String(decoding: $0, as: UTF8.self) }
            let member = object[key]
            switch found {
            case .absent: #expect(member == nil, "\(key)")
            case .null: #expect(member?.isNull == true, "\(key)")
            case .notString: #expect(member != nil && member?.isNull == false && member?.string == nil, "\(key)")
            case .string: #expect(member?.string == bytes, "\(key)")
            }
            #expect((bytes != nil) == (found == .string), "\(key)")
        }
        #expect(object.withStringMember("a") { _ in } == .string)
        #expect(object.withStringMember("f") { _ in } == .absent)
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

    /// What a document reads as, for comparing a reader's result with a fresh parse's: each
    /// member's string, strings, or whether it is null, or the error.
    func reading(_ result: () throws -> JSONTopLevelObject?) -> String {
        do {
            guard let object = try result() else { return "not an object" }
            let keys = ["a", "b", "c", "k16", "\u{e9}"]
            return keys.map { key in
                let member = object[key]
                return "\(key): \(String(describing: member?.isNull)) \(String(describing: member?.string)) "
                    + "\(String(describing: member?.strings)) "
                    + "\(String(describing: member?.withStringBytes { String(decoding: $0, as: UTF8.self) }))"
            }.joined(separator: "; ")
        } catch {
            return "error: \(error)"
        }
    }

    /// One reader over documents that grow, shrink, fail, hold number text, long or escaped
    /// strings and large objects, and have as many entries as their length allows: each reads
    /// as a fresh parse of it does, errors included.
    @Test func aReaderReadsEachDocumentAsAFreshParse() throws {
        let largeObject = "{" + (0..<20).map { "\"k\($0)\": \"v\($0)\"" }.joined(separator: ", ") + "}"
        let dense = "[" + Array(repeating: "1", count: 300).joined(separator: ",") + "]"
        let deep = String(repeating: "[", count: 60) + "1" + String(repeating: "]", count: 60)
        let documents = [
            #"{"a": "x"}"#, #"{"a": "a longer value than the first", "b": ["p", "q"]}"#, #"{"a": "y"}"#,
            #"{"a": 123456789012345678901234567890, "b": "after number text"}"#, #"{"a": "z"}"#,
            "{", #"{"a": "\ud800"}"#, #"{"a": "after errors"}"#, "", "   ", #"{"a": 1} x"#,
            largeObject, #"{"a": "after a large object", "c": null}"#, dense, #"{"b": ["x"]}"#, deep,
            "[" + String(repeating: "[]", count: 1) + "]", #"{"\u00e9": "escaped key", "a": "esc\"aped\n"}"#,
            "{\"a\": \"" + String(repeating: "long ", count: 400) + "\"}", #"{"a": "short again", "a": "last wins"}"#,
            #"{"a": true, "b": false, "c": [1, "x"]}"#, "[\"not an object\"]", #"{"a": "end"}"#,
        ]
        var reader = JSONTopLevelObject.Reader(format: json)
        for document in documents {
            let bytes = Array(document.utf8)
            let expected = reading { try bytes.withUnsafeBytes { try JSONTopLevelObject(parsing: $0, with: json) } }
            let read = reading { try bytes.withUnsafeBytes { try reader.object(parsing: $0) } }
            #expect(read == expected, "\(document.prefix(80))")
        }
    }

    /// Documents that need a tape of their own (number text, large objects), one after another,
    /// each get one of the memory the last had, not more: many in a row read as fresh parses.
    @Test func manyDocumentsThatCannotReuseTheTapeInARow() throws {
        let largeObject = "{" + (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + ", \"a\": \"x\"}"
        var reader = JSONTopLevelObject.Reader(format: json)
        for index in 0..<200 {
            let text =
                index % 3 == 2 ? largeObject : #"{"a": "n\#(index)", "b": 1234567890123456789012345678901234567890}"#
            let bytes = Array(text.utf8)
            let expected = reading { try bytes.withUnsafeBytes { try JSONTopLevelObject(parsing: $0, with: json) } }
            #expect(reading { try bytes.withUnsafeBytes { try reader.object(parsing: $0) } } == expected)
        }
    }

    /// An object a caller keeps stays as it was while the reader reads further documents.
    @Test func aKeptObjectIsNotOverwritten() throws {
        var reader = JSONTopLevelObject.Reader(format: json)
        let first = try #require(try Array(#"{"a": "first"}"#.utf8).withUnsafeBytes { try reader.object(parsing: $0) })
        let member = try #require(first["a"])
        for text in [#"{"a": "second"}"#, #"{"a": "third, and longer than the others"}"#, "{", #"{"b": "x"}"#] {
            _ = try? Array(text.utf8).withUnsafeBytes { try reader.object(parsing: $0) }
        }
        #expect(first["a"]?.string == "first")
        #expect(member.string == "first")
    }

    /// A kept object stays as it was also when the next documents would fit its memory, and the
    /// documents read meanwhile are read right.
    @Test func aKeptObjectIsNotOverwrittenByShorterDocuments() throws {
        var reader = JSONTopLevelObject.Reader(format: json)
        for kept in [#"{"a": "first"}"#, #"{"a": "kept, in a tape made for reuse"}"#] {
            _ = try Array(#"{"z": 1}"#.utf8).withUnsafeBytes { try reader.object(parsing: $0) }
            let first = try #require(try Array(kept.utf8).withUnsafeBytes { try reader.object(parsing: $0) })
            let keptText = first["a"]?.string
            for (text, value) in [(#"{"a": "x"}"#, "x"), (#"{"a":"y"}"#, "y"), ("{}", nil)] {
                let object = try Array(text.utf8).withUnsafeBytes { try reader.object(parsing: $0) }
                #expect(object?["a"]?.string == value, "\(text)")
            }
            #expect(first["a"]?.string == keptText)
            #expect(keptText != nil)
        }
    }

    /// The reader applies its limits as a fresh parse does.
    @Test func aReaderKeepsItsLimits() throws {
        var limits = json.defaultLimits
        limits.maxDepth = 2
        var reader = JSONTopLevelObject.Reader(format: json, limits: limits)
        for text in [#"{"a": "x"}"#, #"{"a": [["deep"]]}"#, #"{"a": ["ok"]}"#] {
            let bytes = Array(text.utf8)
            let expected = reading {
                try bytes.withUnsafeBytes { try JSONTopLevelObject(parsing: $0, with: json, limits: limits) }
            }
            #expect(reading { try bytes.withUnsafeBytes { try reader.object(parsing: $0) } } == expected, "\(text)")
        }
        #expect(reading { try Array(#"{"a": [["deep"]]}"#.utf8).withUnsafeBytes { try reader.object(parsing: $0) } }
            .hasPrefix("error"))
    }
}
