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
        #expect(try decode(text, .init()) == ["a": nil, "b": ["c": nil, "d": 1], "e": [nil, ["f": nil, "g": 2], nil], "h": [[nil]]])
        #expect(try decode("null", .init(removesNullValues: true)) == nil)
        #expect(try decode("[null]", .init(removesNullArrayElements: true)) == [nil])
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
        #expect(try encode(value, .init(isPrettyPrinted: true)) == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"c\": []\n}")
        #expect(try decode(encode(value, .init(sortsKeys: true, isPrettyPrinted: true)), .init()) == value)
    }
}
