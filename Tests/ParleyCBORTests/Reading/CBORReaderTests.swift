import Foundation
import Parley
import ParleyCBOR
import Testing

/// What each kind of item decodes to, and the map-key rules.
@Suite struct CBORReaderTests {
    let cbor = CBORFormat()

    @Test(arguments: [
        ([0x1B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], Value.integer(.max)),
        ([0x1B, 0x80, 0, 0, 0, 0, 0, 0, 0], .number("9223372036854775808")),
        ([0x3B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .integer(.min)),
        ([0x3B, 0x80, 0, 0, 0, 0, 0, 0, 0], .number("-9223372036854775809")),
        ([0x3B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .number("-18446744073709551616")),
        ([0xC2, 0x42, 0x01, 0x00], .integer(256)),
        ([0xC3, 0x48, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .integer(.min)),
        ([0xC2, 0x40], .integer(0)),
        ([0xC2, 0x4B, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0], .number("18446744073709551616")),
        ([0xC3, 0x51, 0x01] + [UInt8](repeating: 0, count: 16), .number("-340282366920938463463374607431768211457")),
        ([0xF9, 0x7B, 0xFF], .float(65504)),
        ([0xFA, 0x47, 0xC3, 0x50, 0x00], .float(100_000)),
        ([0xF9, 0x80, 0x00], .float(-0.0)),
        ([0xF7], .tagged("cbor.undefined", .null)),
        ([0xF3], .tagged("cbor.simple", 19)),
        ([0x7F, 0x61, 0x61, 0x60, 0x62, 0xC3, 0xA9, 0xFF], .string("aé")),
        ([0x5F, 0xFF], .bytes([])),
        ([0xBF, 0x61, 0x61, 0x9F, 0xFF, 0xFF], ["a": []]),
        ([0xD9, 0xD9, 0xF7, 0x83, 0x01, 0x02, 0x03], [1, 2, 3]),
        ([0xC0, 0x78, 0x19] + Array("2013-03-21T21:04:00+01:00".utf8),
         .date(Date(timeIntervalSince1970: 1_363_896_240))),
        ([0xC1, 0x3A, 0x00, 0x0F, 0x42, 0x3F], .date(Date(timeIntervalSince1970: -1_000_000))),
        ([0xDB, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF6], .tagged("cbor.tag.18446744073709551615", .null)),
    ] as [([UInt8], Value)])
    func decodesEachKindOfItem(bytes: [UInt8], expected: Value) throws {
        let value = try cbor.decode(bytes)
        #expect(value == expected)
        if case .float(let d) = expected, case .float(let got) = value { #expect(d.sign == got.sign) }
    }

    @Test func halfPrecisionCoversSubnormalsAndNaN() throws {
        #expect(try cbor.decode([0xF9, 0x00, 0x01]) == .float(5.960464477539063e-08))
        #expect(try cbor.decode([0xF9, 0x03, 0xFF]) == .float(6.097555160522461e-05))
        #expect(try cbor.decode([0xF9, 0x7E, 0x00]).doubleValue?.isNaN == true)
        #expect(try cbor.decode([0xFA, 0x7F, 0xC0, 0x00, 0x00]).doubleValue?.isNaN == true)
    }

    @Test func integerKeysBecomeTextWhereThatIsUnambiguous() throws {
        // {1: "a", -2: "b", 18446744073709551615: "c"}
        let map: [UInt8] = [0xA3, 0x01, 0x61, 0x61, 0x21, 0x61, 0x62, 0x1B]
            + [UInt8](repeating: 0xFF, count: 8) + [0x61, 0x63]
        #expect(try cbor.decode(map) == ["1": "a", "-2": "b", "18446744073709551615": "c"])
        // {1: "a", "1": "b"}: the two keys would collide, so the map is kept with its keys.
        #expect(try cbor.decode([0xA2, 0x01, 0x61, 0x61, 0x61, 0x31, 0x61, 0x62])
                == .tagged("cbor.map", [[1, "a"], ["1", "b"]]))
        // A byte-string, float, Boolean, null or container key has no text form.
        #expect(try cbor.decode([0xA1, 0x41, 0x00, 0x01]) == .tagged("cbor.map", [[.bytes([0]), 1]]))
        #expect(try cbor.decode([0xA1, 0xF9, 0x3C, 0x00, 0x01]) == .tagged("cbor.map", [[1.0, 1]]))
        #expect(try cbor.decode([0xA1, 0x80, 0xF5]) == .tagged("cbor.map", [[[], true]]))
        // With keepsNonTextKeys every non-text key is kept.
        let keeping = CBORFormat(options: .init(keepsNonTextKeys: true))
        #expect(try keeping.decode([0xA1, 0x01, 0x02]) == .tagged("cbor.map", [[1, 2]]))
        #expect(try keeping.decode([0xA1, 0x61, 0x61, 0x02]) == ["a": 2])
        // Kept maps write back as the same map.
        let keptMaps: [[UInt8]] = [[0xA2, 0x01, 0x61, 0x61, 0x61, 0x31, 0x61, 0x62], [0xA1, 0x80, 0xF5],
                                   [0xA1, 0x41, 0x00, 0x01]]
        for bytes in keptMaps {
            #expect(try cbor.encode(try cbor.decode(bytes)) == bytes)
        }
    }

    @Test func tagsWithTheWrongContentAreMalformed() {
        let wrongContent: [[UInt8]] = [
            [0xC0, 0x01], [0xC0, 0x63, 0x61, 0x62, 0x63], [0xC1, 0x61, 0x61], [0xC1, 0xF9, 0x7C, 0x00],
            [0xC2, 0x01], [0xC3, 0x61, 0x61], [0xC4, 0x82, 0x01, 0x61, 0x61], [0xC4, 0x81, 0x01],
            [0xC4, 0x82, 0xF5, 0x01], [0xC4, 0x82, 0x1B, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x01],
        ]
        for bytes in wrongContent {
            let error = #expect(throws: FormatError.self) { try cbor.decode(bytes) }
            #expect(error?.code == .malformed, "\(bytes)")
            #expect(error?.location?.byteOffset == 0)
        }
    }

    @Test func textIsCheckedAtEveryPositionWithMoreInputAfterIt() throws {
        // A text string of every length up to 23 with one non-ASCII character ("é") or one invalid
        // byte (0xFF) at each position, in an array with an integer after it, so the bytes past
        // the string are there to read: the string decodes exactly, the invalid byte is located.
        for length in 2...23 {
            for position in 0...(length - 2) {
                let prefix = Array(repeating: UInt8(ascii: "a"), count: position)
                let suffix = Array(repeating: UInt8(ascii: "b"), count: length - position - 2)
                let valid = prefix + Array("é".utf8) + suffix
                let decoded = try cbor.decode([0x82, 0x60 | UInt8(length)] + valid + [0x01])
                #expect(decoded == [.string(String(decoding: valid, as: UTF8.self)), 1], "\(length) \(position)")
                let invalid = prefix + [0xFF, UInt8(ascii: "c")] + suffix
                let error = #expect(throws: FormatError.self) {
                    try cbor.decode([0x82, 0x60 | UInt8(length)] + invalid + [0x01])
                }
                #expect(error?.code == .invalidText, "\(length) \(position)")
                #expect(error?.location?.byteOffset == 2 + position, "\(length) \(position)")
            }
        }
    }

    /// A document large enough for the reader's table of recent keys: keys of every length up to 15 (made once, then
    /// found again) and a longer one decode as themselves, and an invalid key deep in it is still located.
    @Test func aLargeDocumentsRepeatedKeysDecodeAsThemselves() throws {
        let keys = (0...16).map { String("abcdefghijklmnopq".prefix($0)) } + ["é-ü", "\u{01}x"]
        let records: [Value] = (0..<400).map { record in
            .object(Value.Object(keys.enumerated().map { .init(key: $1, value: .integer(Int64(record * 100 + $0))) }))
        }
        let bytes = try cbor.encode(.array(records))
        #expect(bytes.count >= 16 * 1024)
        #expect(try cbor.decode(bytes) == .array(records))
        // The last record's "\u{01}x" key, its first byte made invalid UTF-8.
        var invalid = bytes
        let at = try #require(invalid.lastIndex(of: 0x01))
        invalid[at] = 0xFF
        let error = #expect(throws: FormatError.self) { try cbor.decode(invalid) }
        #expect(error?.code == .invalidText)
        #expect(error?.location?.byteOffset == at)
    }
}
