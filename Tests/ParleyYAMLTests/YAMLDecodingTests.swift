import Foundation
import Parley
import ParleyYAML
import Testing

@Suite struct YAMLDecodingTests {
    func decode(_ text: String, _ format: YAMLFormat = YAMLFormat()) throws -> Value {
        try format.decode(Array(text.utf8))
    }

    @Test(arguments: [
        ("~", Value.null), ("null", .null), ("Null", .null), ("NULL", .null), ("", .null),
            ("true", .bool(true)), ("True", .bool(true)), ("TRUE", .bool(true)), ("false", .bool(false)),
            ("FALSE", .bool(false)),
            ("0", .integer(0)), ("-17", .integer(-17)), ("+12", .integer(12)), ("0o17", .integer(15)),
            ("0x1F", .integer(31)),
        ("9223372036854775807", .integer(Int64.max)), ("-9223372036854775808", .integer(Int64.min)),
            ("9223372036854775808", .number("9223372036854775808")),
            ("12345678901234567890123", .number("12345678901234567890123")),
        ("0xFFFFFFFFFFFFFFFFFF", .number("4722366482869645213695")), ("-0", .number("-0")),
            ("1.5", .float(1.5)), ("-.5", .float(-0.5)), ("1e3", .float(1000)), ("6.02E+23", .float(6.02e23)),
            ("1.", .float(1)),
        (".inf", .float(.infinity)), ("-.Inf", .float(-.infinity)), ("+.INF", .float(.infinity)),
            ("1e400", .number("1e400")),
            ("0.1000000000000000055511151231257827", .number("0.1000000000000000055511151231257827")),
        ("0.30000000000000004", .float(0.30000000000000004)),
        // YAML 1.1 forms are strings (or decimal) under the 1.2 core schema.
        ("yes", .string("yes")), ("No", .string("No")), ("on", .string("on")), ("off", .string("off")),
        ("0777", .integer(777)), ("1_000", .string("1_000")), ("1:20", .string("1:20")), ("0b101", .string("0b101")),
            ("2001-12-14", .string("2001-12-14")), ("nul", .string("nul")), ("truely", .string("truely")),
            ("0x", .string("0x")),
        ("'true'", .string("true")), ("\"12\"", .string("12")), ("'~'", .string("~")), ("''", .string("")),
    ] as [(String, Value)])
    func plainScalarsResolveWithTheCoreSchema(_ text: String, _ expected: Value) throws {
        #expect(try decode("v: \(text)")["v"] == expected)
    }

    @Test func nanIsAFloat() throws {
        #expect(try decode(".nan").doubleValue?.isNaN == true)
        #expect(try decode(".NaN").doubleValue?.isNaN == true)
    }

    @Test func plainTimestampsAreDatesOnlyWhenAsked() throws {
        let format = YAMLFormat(resolvesPlainTimestamps: true)
        let date = try #require(try decode("2001-12-14 21:59:43.10 -5", format).dateValue)
        #expect(abs(date.timeIntervalSince1970 - 1_008_385_183.1) < 1e-6)
        #expect(try decode("2002-12-14", format) == .date(Date(timeIntervalSince1970: 1_039_824_000)))
        #expect(try decode("'2002-12-14'", format) == "2002-12-14")
    }

    @Test func streamsYieldTheFirstDocumentByDefault() throws {
        #expect(try decode("--- 1\n--- 2\n") == 1)
        #expect(try decode("--- 1\n--- 2\n", YAMLFormat(documents: .all)) == [1, 2])
        #expect(try decode("a: 1\n", YAMLFormat(documents: .all)) == ["a": 1])
        #expect(try decode("# only a comment\n", YAMLFormat(documents: .all)) == .null)
        #expect(try decode("") == .null)
    }

    @Test func aLaterBrokenDocumentFailsTheFirstDocumentDecode() {
        let error = #expect(throws: FormatError.self) { try decode("--- 1\n--- [2\n") }
        #expect(error?.code == .malformed || error?.code == .truncated)
    }

    @Test func anchorsAreScopedToTheirDocument() {
        let error = #expect(throws: FormatError.self) { try decode("--- &a 1\n--- *a\n", YAMLFormat(documents: .all)) }
        #expect(error?.code == .malformed)
    }

    @Test func aliasesCopyTheAnchoredNode() throws {
        let value = try decode("a: &x {k: [1, 2]}\nb: *x\nc: &y v\nd: *y\n*y : key\n")
        #expect(value["b"] == ["k": [1, 2]])
        #expect(value["d"] == "v")
        #expect(value["v"] == "key")
    }

    @Test func mergeKeysMergeMappingsWithExplicitKeysWinning() throws {
        let value = try decode("""
            base: &base {a: 1, b: 2}
            more: &more {b: 20, c: 30}
            one:
              <<: *base
              b: 9
            many:
              x: 0
              <<: [*base, *more]
              a: 100
            """)
        #expect(value["one"] == ["a": 1, "b": 9])
        // Merged members take the place of the `<<` key.
        #expect(value["many"] == ["x": 0, "b": 2, "c": 30, "a": 100])
    }

    @Test func aQuotedMergeKeyIsAnOrdinaryKey() throws {
        #expect(try decode("'<<': {a: 1}") == ["<<": ["a": 1]])
    }

    @Test(arguments: ["<<: 1", "<<: [1, 2]", "a: &a [1]\nb:\n  <<: *a"])
    func mergeOfANonMappingIsMalformed(_ text: String) {
        let error = #expect(throws: FormatError.self) { try decode(text) }
        #expect(error?.code == .malformed)
    }

    @Test func duplicateKeysAreRejectedWithTheirLocation() throws {
        let error = #expect(throws: FormatError.self) { try decode("a: 1\nb: 2\na: 3\n") }
        #expect(error?.code == .malformed)
        #expect(error?.location?.line == 3)
        #expect(error?.location?.column == 1)
        #expect(error?.location?.byteOffset == 10)
        let many = (0..<20).map { "k\($0): \($0)" }.joined(separator: "\n") + "\nk7: again\n"
        #expect(throws: FormatError.self) { try decode(many) }
    }

    @Test func keysOfOneLengthAndStartAreComparedInFull() throws {
        // Keys alike in length and first bytes are compared whole.
        let value = try decode("name: 1\nnamx: 2\nnote: 3\n'nam': 4\n")
        #expect(value.objectValue?.keys == ["name", "namx", "note", "nam"])
        let repeated = #expect(throws: FormatError.self) { try decode("name: 1\nnamx: 2\n\"name\": 3\n") }
        #expect(repeated?.location?.line == 3)
        // A key written through an alias is checked like any other.
        #expect(throws: FormatError.self) { try decode("a: &k key\n*k : 2\nkey: 3\n") }
        #expect(throws: FormatError.self) { try decode("a: &k key\nkey: 2\n*k : 3\n") }
        // A collection key is not compared itself, but its text is, with the scalar keys after it.
        #expect(throws: FormatError.self) { try decode("? [a]\n: 1\n'[a]': 2\n") }
        #expect(throws: FormatError.self) { try decode("x: &c [a]\n? *c\n: 1\n'[a]': 2\n") }
    }

    @Test func repeatedKeysDecodeButDoNotEncode() throws {
        // Found by FuzzYAML: two `[null]` collection keys decode to two equal string keys, which
        // were written back as YAML the decoder then refused. The writer refuses them instead.
        let value = try decode("\n?\n-\n?\n-")
        #expect(value.objectValue?.keys == ["[null]", "[null]"])
        #expect { try YAMLFormat().encode(value) } throws: { ($0 as? FormatError)?.code == .unsupportedValue }
        let nested: Value = ["outer": .object(["a": 1, "b": 2, "a": 3])]
        #expect { try YAMLFormat().encode(.array([nested])) } throws: {
            ($0 as? FormatError)?.code == .unsupportedValue
        }
        let wide = Value.object(Value.Object((0..<40).map { .init(key: "k\($0 % 39)", value: 1) }))
        #expect { try YAMLFormat().encode(wide) } throws: { ($0 as? FormatError)?.code == .unsupportedValue }
    }

    @Test func duplicateKeysAreKeptWhenAsked() throws {
        let value = try decode("a: 1\na: 2\n", YAMLFormat(duplicateKeys: .keepAll))
        #expect(value.objectValue?.count == 2)
        #expect(value["a"] == 2)
    }

    @Test func collectionKeysBecomeTheirFlowText() throws {
        let value = try decode("? [a, b]\n: 1\n? {x: 1, y: [2]}\n: 2\n[c, 'd e']: 3\n")
        #expect(value.objectValue?.keys == ["[a, b]", "{x: 1, \"y\": [2]}", "[c, d e]"])
    }

    @Test func scalarKeysKeepTheirText() throws {
        #expect(try decode("1: a\ntrue: b\n~: c\n0x10: d\n").objectValue?.keys == ["1", "true", "~", "0x10"])
    }

    @Test(arguments: ["a: &a [*a]", "&a {k: *a}", "a: *undefined"])
    func cyclicAndUndefinedAliasesAreMalformed(_ text: String) {
        let error = #expect(throws: FormatError.self) { try decode(text) }
        #expect(error?.code == .malformed)
    }

    @Test func syntaxErrorsCarryLibyamlsLocation() {
        let error = #expect(throws: FormatError.self) { try decode("a: 1\nb: [1, 2\nc: 3\n") }
        #expect(error?.location?.line != nil)
        let unclosed = #expect(throws: FormatError.self) { try decode("key: \"never closed") }
        #expect(unclosed?.code == .truncated)
        // Columns count characters; the byte offset counts the two bytes of each "é".
        let nested = #expect(throws: FormatError.self) { try decode("é: x\néé: y: z\n") }
        #expect(nested?.location?.line == 2)
        #expect(nested?.location?.column == 6)
        #expect(nested?.location?.byteOffset == 13)
    }

    @Test func invalidUTF8IsInvalidText() {
        let error = #expect(throws: FormatError.self) { try YAMLFormat().decode([0x61, 0x3A, 0x20, 0xFF, 0xFE, 0x0A]) }
        #expect(error?.code == .invalidText)
    }

    @Test func charsetParameterAndByteOrderMarksAreHonoured() throws {
        let latin1: [UInt8] = [0x61, 0x3A, 0x20, 0xE9]  // "a: é" in ISO-8859-1
        #expect(try YAMLFormat().decode(latin1, as: "application/yaml; charset=iso-8859-1") == ["a": "é"])
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "a: é".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try YAMLFormat().decode(utf16) == ["a": "é"])
        #expect(try YAMLFormat().decode([0xEF, 0xBB, 0xBF] + Array("a: 1".utf8)) == ["a": 1])
    }

    @Test func bodySizeLimitIsCheckedFirst() {
        let error = #expect(throws: FormatError.self) {
            try YAMLFormat().decode(Array("a: 1".utf8), limits: DecodingLimits(maxBodyBytes: 3))
        }
        #expect(error?.limit?.name == "maxBodyBytes")
    }

    @Test func mediaTypesAreDeclared() {
        let format = YAMLFormat()
        #expect(format.name == "yaml")
        #expect(format.isTextual)
        #expect(format.encodableMediaTypes == ["application/yaml"])
        for type in ["application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"] as [MediaType] {
            #expect(format.decodableMediaTypes.contains(type))
        }
        let registry = Registry(formats: [format])
        #expect(registry.decoder(for: "application/vnd.api+yaml")?.format.name == "yaml")
        #expect(registry.decoder(for: "text/x-yaml; charset=utf-8")?.format.name == "yaml")
    }
}
