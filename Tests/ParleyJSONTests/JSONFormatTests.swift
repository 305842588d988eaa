import Foundation
import Parley
import ParleyJSON
import ParleyTestKit
import Testing

@Suite struct JSONFormatTests {
    let json = JSONFormat()

    func decode(_ text: String, options: JSONFormat.Options = .init(), limits: DecodingLimits? = nil) throws -> Value {
        try JSONFormat(options: options).decode(Array(text.utf8), limits: limits)
    }

    func encode(_ value: Value, options: JSONFormat.Options = .init()) throws -> String {
        String(decoding: try JSONFormat(options: options).encode(value), as: UTF8.self)
    }

    @Test func conformsToTheKit() {
        FormatConformance.expectConformance(
            of: json,
            options: .init(
                samples: FormatConformance.standardSamples + [
                    [.number("12345678901234567890123"), .number("1e400"), .number("-0")]
                ],
                malformedInputs: [
                    Array("[1,]".utf8), Array("{\"a\" 1}".utf8), Array("\"\\uD800\"".utf8), [0x22, 0xFF, 0x22]
                ]))
    }

    @Test func declaresItsMediaTypes() {
        #expect(json.name == "json")
        #expect(json.decodableMediaTypes.map(\.description) == ["application/json", "application/*+json", "text/json"])
        #expect(json.encodableMediaTypes.map(\.description) == ["application/json"])
        #expect(json.isTextual)
        #expect(Registry(formats: [json]).decoder(for: "application/problem+json") != nil)
    }

    @Test func decodesScalarsAndContainers() throws {
        #expect(
            try decode(#"{"a": [true, false, null, "x", 1, -2, 0.5]}"#) == ["a": [true, false, nil, "x", 1, -2, 0.5]])
        #expect(try decode(" \t\r\n[ ] ") == [])
        #expect(try decode("{}") == [:])
    }

    @Test(arguments: ["12345678901234567890123", "-12345678901234567890123", "1e400", "-0", "0.1", "1E+2", "-0.0",
                      "123.456e-789", "0.30000000000000004", "9223372036854775808", "-9223372036854775809",
                      "9223372036854775807", "-9223372036854775808", "1.0", "100"])
    func numbersRoundTripExactly(_ text: String) throws {
        let value = try decode(text)
        let written = try encode(value)
        #expect(try decode(written) == value)
        switch value {
        case .number(let kept): #expect(kept == text && written == text)
        case .float(let d): #expect(Double(written) == d && Double(text) == d)
        case .integer(let i): #expect(written == text && Int64(text) == i)
        default: Issue.record("\(text) decoded to \(value)")
        }
    }

    @Test func classifiesNumbers() throws {
        #expect(try decode("9223372036854775807") == .integer(.max))
        #expect(try decode("-9223372036854775808") == .integer(.min))
        #expect(try decode("9223372036854775808") == .number("9223372036854775808"))
        #expect(try decode("-0") == .number("-0"))
        #expect(try decode("0.1") == .float(0.1))
        #expect(try decode("1e400") == .number("1e400"))
        #expect(try decode("1e-400") == .number("1e-400"))
        #expect(try decode("0.1234567890123456") == .number("0.1234567890123456"))
        #expect(try decode("12345678901234.5") == .float(12345678901234.5))
        #expect(try decode("123456789012345.0") == .number("123456789012345.0"))
        #expect(try decode("1E22") == .float(1e22))
        #expect(try decode("1e23") == .float(1e23))
        #expect(try decode("2.5e-3") == .float(0.0025))
    }

    @Test func writesFloatsDistinctFromIntegers() throws {
        #expect(try encode(.float(1)) == "1.0")
        #expect(try encode(.integer(1)) == "1")
        #expect(try encode(.float(0.1)) == "0.1")
        #expect(try encode(.float(-0.0)) == "-0.0")
        #expect(try decode(encode(.float(1e300))) == .float(1e300))
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func refusesNonFiniteFloats(_ d: Double) {
        #expect(throws: FormatError.self) { try encode([.float(d)]) }
        let error = try? #require(throws: FormatError.self) { try encode(.float(d)) }
        #expect(error?.code == .unsupportedValue)
    }

    @Test func writesDatesOfEveryYearAndRefusesThoseWithNoTimestamp() throws {
        #expect(try encode(.date(Date(timeIntervalSince1970: 253_539_713_695)))
            == #""10004-05-09T10:14:55Z""#)
        let error = try? #require(throws: FormatError.self) { try encode(.date(Date(timeIntervalSince1970: 1e300))) }
        #expect(error?.code == .unsupportedValue)
    }

    @Test(arguments: ["", "1.", "01", "+1", "0x10", "1e", "--1", "NaN", "1 2"])
    func refusesNumberTextThatIsNotJSON(_ text: String) {
        let error = try? #require(throws: FormatError.self) { try encode(.number(text)) }
        #expect(error?.code == .unsupportedValue)
    }

    @Test func escapesStringsPerRFC8259() throws {
        #expect(try encode("a\"b\\c/d\n\r\t\u{8}\u{C}\u{0}\u{1F}é𝄞") == #""a\"b\\c/d\n\r\t\b\f\u0000\u001fé𝄞""#)
        #expect(try decode(#""\u00e9\/\b\f\n\r\t\"\\\ud834\udd1e""#) == "é/\u{8}\u{C}\n\r\t\"\\𝄞")
    }

    /// Strings with escapes are decoded over their own escapes in the parser's copy of the text:
    /// every mix of plain runs, short escapes, `\u` escapes (surrogate pairs too) and raw UTF-8
    /// reads back exactly, as values and as keys, and the values after them are untouched.
    @Test func decodesEscapesInPlaceWhateverTheMix() throws {
        let pieces: [(json: String, text: String)] = [
            ("a", "a"), ("plain run of text", "plain run of text"), ("é", "é"), ("𝄞", "𝄞"), (#"\n"#, "\n"),
            (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\b"#, "\u{8}"), (#"\f"#, "\u{C}"), (#"\r"#, "\r"),
            (#"\t"#, "\t"),
            (#"\u0041"#, "A"), (#"\u00e9"#, "é"), (#"\u20AC"#, "€"), (#"\ud834\udd1e"#, "𝄞"), (#"\u0000"#, "\u{0}")
        ]
        var generator = SplitMix64(seed: 0xE5CA_9E5)
        for _ in 0..<300 {
            var json = "", text = ""
            for _ in 0..<Int(generator.next() % 12) {
                let piece = pieces[Int(generator.next() % UInt64(pieces.count))]
                json += piece.json
                text += piece.text
            }
            let document = "[\"\(json)\",{\"\(json)\":\"\(json)\",\"k\":12.5},\"after\",\"\(json)\"]"
            let expected: Value = [
                .string(text), .object([text: .string(text), "k": .float(12.5)]), "after", .string(text)
            ]
            #expect(try decode(document) == expected, "\(json)")
            #expect(
                try JSONFormat().decode(
                    [String: String].self, from: Array("{\"\(json)\":\"\(json)\",\"b\":\"x\"}".utf8))
                    == [text: text, "b": "x"], "\(json)")
        }
    }

    /// Error locations count the lines of the text as it was given, not of its decoded strings.
    @Test func errorsAfterEscapedNewlinesKeepTheirLine() throws {
        var error = try #require(throws: FormatError.self) { try decode(#"["a\nb\nc\n", tru]"#) }
        #expect(error.location == FormatError.Location(byteOffset: 17, line: 1, column: 18))
        error = try #require(throws: FormatError.self) { try decode("[\"\\n\\n\",\n \"\\u000A\", x]") }
        #expect(error.location == FormatError.Location(byteOffset: 20, line: 2, column: 12))
    }

    /// Arrays whose elements take one entry each (scalars, empty containers) are built in one
    /// step, as a literal up to two elements: every length and mix reads the same.
    @Test func flatArraysOfEveryShortLengthReadTheSame() throws {
        let elements: [(json: String, value: Value)] = [
            ("1", 1), ("-2.5", -2.5), ("\"s\"", "s"), ("\"a\\nb\"", "a\nb"), ("true", true), ("false", false),
            ("null", nil), ("{}", .object([:])), ("[]", []), ("12345678901234567890", .number("12345678901234567890")),
        ]
        for length in 0...4 {
            for start in elements.indices {
                let picked = (0..<length).map { elements[(start + $0 * 3) % elements.count] }
                let text = "[" + picked.map(\.json).joined(separator: ",") + "]"
                #expect(try decode(text) == .array(picked.map(\.value)), "\(text)")
                #expect(try decode("{\"k\":\(text)}") == .object(["k": .array(picked.map(\.value))]), "\(text)")
            }
        }
    }

    @Test func mapsValuesJSONHasNoTypeFor() throws {
        #expect(try encode(.bytes([0, 1, 2, 255])) == #""AAEC/w==""#)
        #expect(try encode(.date(Date(timeIntervalSince1970: 0))) == #""1970-01-01T00:00:00Z""#)
        #expect(try encode(.date(Date(timeIntervalSince1970: 1_700_000_000.25))) == #""2023-11-14T22:13:20.250Z""#)
        #expect(try encode(.tagged("uid", 7)) == "7")
    }

    /// Short keys are found from two words of the text: every length around the word edges, with
    /// escapes, non-ASCII or a control character, reads (or fails) as any other string does.
    @Test(arguments: 0...18)
    func readsKeysOfEveryLengthAroundTheWordEdges(length: Int) throws {
        let plain = String(repeating: "k", count: length)
        for key in [plain, plain + "\\n", "é" + plain, plain + "é", "\\u0041" + plain] {
            let decoded = try decode("{\"\(key)\":1,\"\(key)x\":[{\"\(key)\":2}]}")
            let expected = try decode("[\"\(key)\",\"\(key)x\"]").arrayValue!.map { $0.stringValue! }
            guard case .object(let object) = decoded else { Issue.record("not an object"); return }
            #expect(object.keys == expected)
            #expect(object[expected[1]]?.arrayValue?.first?.objectValue?.keys == [expected[0]])
            #expect(
                try JSONFormat().decode([String: Bool].self, from: Array("{\"\(key)\":true}".utf8)) == [
                    expected[0]: true
                ])
        }
        // The text ends inside the key, or a raw control character is in it.
        for (text, code) in [("{\"\(plain)", FormatError.Code.truncated), ("{\"\(plain)\u{1}\":1}", .malformed),
                             ("{\"\(plain)\u{0}\":1}", .malformed)] {
            let error = try #require(throws: FormatError.self) { try decode(text) }
            #expect(error.code == code)
            #expect(error.location?.byteOffset == 2 + length)
        }
    }

    /// The parser counts the members of the innermost open container apart from the tape: each
    /// container keeps its count across the containers opened and closed inside it, at every
    /// depth, and with whitespace around keys and colons.
    @Test func countsMembersAroundNestedContainers() throws {
        let text = """
            {"a":1,"b":[2,{"c":[3,[4,5],{}],"d":6},[],7],"e" : {"f":{"g":[8]} ,"h":9},
             "big":{\((0..<40).map { "\"k\($0)\":[\($0)]" }.joined(separator: ","))},"i":[[[]],10]}
            """
        let big = Value.object(.init((0..<40).map { .init(key: "k\($0)", value: [.integer(Int64($0))]) }))
        let expected: Value = [
            "a": 1, "b": [2, ["c": [3, [4, 5], .object([:])], "d": 6], [], 7], "e": ["f": ["g": [8]], "h": 9],
            "big": big, "i": [[[]], 10],
        ]
        #expect(try decode(text) == expected)
        // Every value counts against `maxNodes`, containers and their members alike.
        // The outer object, then the values of "a", "b", "e", "big" and "i", each with all inside it.
        let nodes = 1 + 1 + 12 + 5 + (1 + 40 * 2) + 4
        #expect(try decode(text, limits: DecodingLimits(maxNodes: nodes)) == expected)
        let error = try #require(throws: FormatError.self) { try decode(text, limits: DecodingLimits(maxNodes: nodes - 1)) }
        #expect(error.limit?.name == "maxNodes")
    }

    @Test func reportsLineAndColumn() throws {
        let error = try #require(throws: FormatError.self) { try decode("{\n  \"a\": tru,\n}") }
        #expect(error.code == .malformed)
        #expect(error.location == FormatError.Location(byteOffset: 12, line: 2, column: 11))
    }

    @Test(arguments: [
        ("[1,]", FormatError.Code.malformed, 3), ("[1", .truncated, 2), ("{\"a\":1,}", .malformed, 7),
        ("\"abc", .truncated, 4),
        ("[01]", .malformed, 2), ("[1.]", .malformed, 3), ("\"\u{1}\"", .malformed, 1), ("[\"\\x\"]", .malformed, 2),
        ("nul", .truncated, 3), ("[nulx]", .malformed, 4), ("{\"a\" 1}", .malformed, 5), ("[] []", .malformed, 3),
        ("tru", .truncated, 3), ("[fals", .truncated, 5), ("[fale]", .malformed, 4), ("[truE]", .malformed, 4),
        ("[tRue]", .malformed, 2), ("[nulL]", .malformed, 4), ("[truex]", .malformed, 5), ("f", .truncated, 1)
    ])
    func rejectsMalformedInputAtTheRightOffset(_ text: String, code: FormatError.Code, offset: Int) throws {
        let error = try #require(throws: FormatError.self) { try decode(text) }
        #expect(error.code == code)
        #expect(error.location?.byteOffset == offset)
    }
}
