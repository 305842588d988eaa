import Foundation
import Parley
import ParleyYAML
import Testing

@Suite struct YAMLEncodingTests {
    func encode(_ value: Value) throws -> String {
        String(decoding: try YAMLFormat().encode(value), as: UTF8.self)
    }

    func roundTrip(_ value: Value) throws -> Value {
        try YAMLFormat().decode(try YAMLFormat().encode(value))
    }

    @Test func writesBlockStyle() throws {
        let value: Value = ["name": "Ada", "tags": ["math", "engines"], "address": ["city": "London", "zip": nil],
                            "matrix": [[1, 2], [3]], "people": [["id": "a", "k": 1]], "none": [], "empty": [:]]
        let text = try encode(value)
        #expect(text == """
            name: Ada
            tags:
              - math
              - engines
            address:
              city: London
              zip: null
            matrix:
              - - 1
                - 2
              - - 3
            people:
              - id: a
                k: 1
            none: []
            empty: {}

            """)
        #expect(try roundTrip(value) == value)
    }

    @Test(arguments: [
        "true", "False", "null", "~", "", "1.0", "12", "0x1F", "-3", ".inf", ".nan", "yes", "No", "on", "OFF",
        "y", "0777", "1_000", "2001-12-14", " lead", "trail ", "a: b", "a #b", "#c", "- x", "-", "?", ":", "key:",
        "[x]", "{x}", "&a", "*a", "!t", "|", ">", "'", "\"", "%", "@", "`", "<<", "=", "line\nbreak", "tab\there",
        "\u{0}\u{7}\u{1B}", "\u{85}\u{2028}\u{FEFF}", "...", "---", ",x", "x\r", "n", "Y", "NO", "oN", "Off", "nULL",
    ])
    func stringsThatWouldReadAsSomethingElseAreQuoted(_ string: String) throws {
        let text = try encode(["v": .string(string)])
        #expect(text.hasPrefix("v: \""), "\(text)")
        #expect(try roundTrip(["v": .string(string)]) == ["v": .string(string)])
        #expect(try roundTrip([string: 1] as Value) == [string: 1] as Value)
    }

    @Test(arguments: ["plain", "two words", "héllo wörld ✓ 𝄞", "a-b", "a:b", "a#b", "http://example.com/x?y=1#z", "x.y",
                      "id", "zip", "name", "tags", "ok", "fo", "yess", "offs", "nul"])
    func ordinaryStringsStayPlain(_ string: String) throws {
        #expect(try encode(["v": .string(string)]) == "v: \(string)\n")
    }

    @Test func numbersKeepTheirExactValue() throws {
        let value: Value = [
            .integer(Int64.max), .integer(Int64.min), 0.1, 1.5e300, .float(.leastNonzeroMagnitude), -0.0, 1e16,
            .number("12345678901234567890123"), .number("1e400"), .number("-0"),
            .number("0.1000000000000000055511151231257827"), .float(.infinity), .float(-.infinity)
        ]
        #expect(try roundTrip(value) == value)
        #expect(try roundTrip(.float(.nan)).doubleValue?.isNaN == true)
        #expect(try encode(.number("1e400")) == "1e400\n")
    }

    @Test func bytesDatesAndTagsAreWrittenWithTags() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let value: Value = [
            "bin": .bytes([0, 1, 2, 253, 254, 255]), "when": .date(date),
            "point": .tagged("!point", ["x": 1]), "obj": .tagged("tag:yaml.org,2002:python/object:x.Y", ["a": [1]]),
            "odd": .tagged("tag:example.com,2024:a b", "v"), "list": [.tagged("!t", [1, 2]), .tagged("!e", [])]
        ]
        let text = try encode(value)
        #expect(text.contains("bin: !!binary AAEC/f7/\n"))
        #expect(text.contains("when: !!timestamp 2023-11-14T22:13:20.25Z\n"))
        #expect(text.contains("point: !point\n"))
        #expect(text.contains("obj: !!python/object:x.Y\n"))
        #expect(try roundTrip(value) == value)
        #expect(try roundTrip(.tagged("!top", ["a": 1])) == .tagged("!top", ["a": 1]))
    }

    @Test func datesOutsideTheYearsATimestampHoldsAreRefusedNotChanged() throws {
        let last = Value.date(Date(timeIntervalSince1970: 253_402_300_799))
        #expect(try YAMLFormat().decode(try YAMLFormat().encode(last)) == last)
        for seconds in [253_402_300_800, -62_167_219_201, 1e300] {
            #expect { try encode(.date(Date(timeIntervalSince1970: seconds))) } throws: {
                ($0 as? FormatError)?.code == .unsupportedValue
            }
        }
    }

    @Test func tagsWithCharactersLibYAMLCannotScanArePercentEncoded() throws {
        // Found by FuzzYAML: `!%23` decodes to the tag `!#`, which was written back as `!#`.
        let value = try YAMLFormat().decode(Array(" !%23".utf8))
        #expect(value == .tagged("!#", ""))
        #expect(try encode(value) == "!<!%23> \"\"\n")
        #expect(try roundTrip(value) == value)
        #expect(try roundTrip(.tagged("tag:example.com,2024:a#b", "v")) == .tagged("tag:example.com,2024:a#b", "v"))
        // And `!%25` decodes to `!%`, which must not be written back as an escape.
        #expect(try roundTrip(.tagged("!%", "")) == .tagged("!%", ""))
        #expect(try roundTrip(.tagged("!a%41", "v")) == .tagged("!a%41", "v"))
    }

    @Test func doubleQuotedStringsEscapeWhatIsNotPrintable() throws {
        // Each escape YAML names, `\x` and `\u` for other non-printable scalars, and printable
        // text (ASCII, two-, three- and four-byte UTF-8) as it is.
        let string = "1 \"q\" \\ \u{0}\t\n\r\u{1B}\u{85}\u{2028}\u{2029}\u{7F}\u{1}\u{9F}\u{FEFF}\u{FFFE}ü – 😀 end"
        #expect(try encode(.string(string)) == #"""
            "1 \"q\" \\ \0\t\n\r\e\N\L\P\x7F\x01\x9F\uFEFF\uFFFEü – 😀 end"

            """#)
        #expect(try roundTrip(.string(string)) == .string(string))
        let nested: Value = .object([string: .array([.string(string)])])
        #expect(try roundTrip(nested) == nested)
        // Printable non-ASCII text alone stays plain; a non-printable scalar anywhere quotes it.
        #expect(try encode("Zürich – São Paulo 😀") == "Zürich – São Paulo 😀\n")
        #expect(try encode("Zürich\u{2028}") == "\"Zürich\\L\"\n")
    }

    @Test func veryLongKeysUseTheExplicitForm() throws {
        let key = String(repeating: "k", count: 2_000)
        #expect(try encode([key: 1] as Value).hasPrefix("? "))
        #expect(try roundTrip([key: 1] as Value) == [key: 1] as Value)
        // Found by FuzzYAML: 990 bytes of text become more than 1,000 once quoted and escaped.
        let escaped = String(repeating: "\"", count: 990)
        #expect(try encode([escaped: 1] as Value).hasPrefix("? "))
        #expect(try roundTrip([escaped: 1] as Value) == [escaped: 1] as Value)
        #expect(try !encode([String(repeating: "k", count: 990): 1] as Value).hasPrefix("? "))
    }

    @Test func nestedTagsCannotBeWritten() {
        let error = #expect(throws: FormatError.self) { try YAMLFormat().encode(.tagged("!a", .tagged("!b", 1))) }
        #expect(error?.code == .unsupportedValue)
    }

    @Test func deepValuesAreWrittenWithoutRecursion() throws {
        var value: Value = 1
        for _ in 0..<10_000 { value = [value] }
        let bytes = try YAMLFormat().encode(value)
        #expect(bytes.count > 10_000)
        let error = #expect(throws: FormatError.self) { try YAMLFormat().decode(bytes) }
        #expect(error?.code == .limitExceeded)
    }

    @Test func jsonDocumentsRoundTripThroughYAMLExactly() throws {
        let json = """
            {"id": 12345678901234567890, "price": 19.99, "ratio": 1e-7, "tiny": 5e-324, "neg": -0.0,
             "name": "Zoë \\u2028 \\"quoted\\"", "flags": [true, false, null], "empty": "", "list": [], "map": {},
             "nested": {"a": [{"b": "true"}, {"c": "null"}, "1.0", " spaced "]}}
            """
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let value = JSONReference.value(from: object)
        #expect(try roundTrip(value) == value)
    }
}
