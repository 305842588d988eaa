import Parley
import ParleyJSON
import Testing

@Suite struct JSONOptionsTests {
    func decode(_ text: String, _ options: JSONFormat.Options) throws -> Value {
        try JSONFormat(options: options).decode(Array(text.utf8))
    }

    func encode(_ value: Value, _ options: JSONFormat.Options) throws -> String {
        String(decoding: try JSONFormat(options: options).encode(value), as: UTF8.self)
    }

    @Test func fragmentsAreAllowedByDefault() throws {
        #expect(try decode("42", .init()) == 42)
        #expect(try decode("\"x\"", .init()) == "x")
        #expect(try decode("null", .init()) == nil)
    }

    @Test func fragmentsCanBeRefused() throws {
        let error = try #require(throws: FormatError.self) { try decode(" 42", .init(allowsFragments: false)) }
        #expect(error.code == .malformed)
        #expect(error.location?.byteOffset == 1)
        #expect(try decode("[42]", .init(allowsFragments: false)) == [42])
    }

    @Test func removesNullMembersAtEveryDepthButKeepsArrayIndices() throws {
        let text = #"{"a": null, "b": {"c": null, "d": 1}, "e": [null, {"f": null, "g": 2}, null], "h": [[null]]}"#
        #expect(try decode(text, .init(removesNullValues: true))
            == ["b": ["d": 1], "e": [nil, ["g": 2], nil], "h": [[nil]]])
        #expect(try decode(text, .init(removesNullValues: true, removesNullArrayElements: true))
            == ["b": ["d": 1], "e": [["g": 2]], "h": [[]]])
        #expect(
            try decode(text, .init()) == [
                "a": nil, "b": ["c": nil, "d": 1], "e": [nil, ["f": nil, "g": 2], nil], "h": [[nil]]
            ])
        #expect(try decode("null", .init(removesNullValues: true)) == nil)
        #expect(try decode("[null]", .init(removesNullArrayElements: true)) == [nil])
    }

    @Test func removingNullsKeepsKeysOrderAndDuplicatesAndBuildsEveryMember() throws {
        // Escaped keys, a repeated key (both kept, in order), numbers as text, an object emptied
        // by the removal (it stays), and every member built: nothing deferred in the result.
        let text =
            #"{"k\u00e9y": "v\n", "a": 1, "a": null, "a": 2, "big": 1e400, "empty": {"x": null}, "z": [{"y": null}]}"#
        let value = try decode(text, .init(removesNullValues: true))
        let object = try #require(value.objectValue)
        #expect(object.map(\.key) == ["kéy", "a", "a", "big", "empty", "z"])
        #expect(
            object.map(\.value) == ["v\n", 1, 2, .number("1e400"), .object(Value.Object()), [.object(Value.Object())]])
        #expect(!object.isDeferred)
        #expect(object.allSatisfy { !($0.value.objectValue?.isDeferred ?? false) })
    }

    @Test func removingNullsBuildsDeepDocumentsWithoutTheMachineStack() throws {
        // 3,000 levels of alternating arrays and objects (past the default maxDepth of 512): built
        // on an explicit stack. (Deeper would test Swift's recursive release of the tree, not this.)
        let depth = 3_000
        var text = ""
        for level in 0..<depth { text += level.isMultiple(of: 2) ? "[" : #"{"k":"# }
        text += "null"
        for level in (0..<depth).reversed() { text += level.isMultiple(of: 2) ? "]" : "}" }
        let limits = DecodingLimits(maxDepth: depth + 1)
        let value = try JSONFormat(options: .init(removesNullValues: true)).decode(Array(text.utf8), limits: limits)
        var innermost = value
        var levels = 0
        while true {
            if case .array(let elements) = innermost, let first = elements.first { innermost = first }
            else if case .object(let object) = innermost, let first = object.first { innermost = first.value }
            else { break }
            levels += 1
        }
        // The innermost object lost its null member; every container above it stays.
        #expect(levels == depth - 1)
        #expect(innermost == .object(Value.Object()))
    }

    @Test(arguments: ["", " ", "\n", " \t\r\n "])
    func blankBodiesFollowThePolicy(_ text: String) throws {
        let error = try #require(throws: FormatError.self) { try decode(text, .init()) }
        #expect(error.code == .truncated)
        #expect(try decode(text, .init(blankBody: .value(nil))) == nil)
        #expect(try decode(text, .init(blankBody: .value([:]))) == [:])
    }

    @Test func sortsKeysByCodePoint() throws {
        let value: Value = ["b": 1, "a": ["z": 1, "é": 2, "Z": 3], "": 0]
        #expect(try encode(value, .init(sortsKeys: true)) == #"{"":0,"a":{"Z":3,"z":1,"é":2},"b":1}"#)
        #expect(try encode(value, .init()) == #"{"b":1,"a":{"z":1,"é":2,"Z":3},"":0}"#)
    }

    @Test func printsPrettily() throws {
        let value: Value = ["a": [1, 2], "b": [:], "c": []]
        #expect(
            try encode(value, .init(isPrettyPrinted: true))
                == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"c\": []\n}")
        #expect(try decode(encode(value, .init(sortsKeys: true, isPrettyPrinted: true)), .init()) == value)
    }
}
