import Foundation
import Parley
import ParleyCBOR
import Testing

/// Preferred serialization (RFC 8949 §4.1) and deterministic encoding (§4.2.1).
@Suite struct CBORWriterTests {
    let cbor = CBORFormat()

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(arguments: [
        (Value.integer(0), "00"), (23, "17"), (24, "1818"), (255, "18ff"), (256, "190100"), (65535, "19ffff"),
        (65536, "1a00010000"), (4_294_967_295, "1affffffff"), (4_294_967_296, "1b0000000100000000"),
        (-1, "20"), (-24, "37"), (-25, "3818"), (-256, "38ff"), (-257, "390100"),
        (.integer(.min), "3b7fffffffffffffff"),
        (.number("18446744073709551615"), "1bffffffffffffffff"),
        (.number("-18446744073709551616"), "3bffffffffffffffff"),
        (.number("18446744073709551616"), "c249010000000000000000"),
        (.number("-18446744073709551617"), "c349010000000000000000"),
    ] as [(Value, String)])
    func integersTakeTheShortestHead(value: Value, hex: String) throws {
        #expect(Self.hex(try cbor.encode(value)) == hex)
    }

    @Test(arguments: [
        (0.0, "f90000"), (-0.0, "f98000"), (1.5, "f93e00"), (65504, "f97bff"), (5.960464477539063e-08, "f90001"),
        (6.103515625e-05, "f90400"), (.infinity, "f97c00"), (-.infinity, "f9fc00"), (.nan, "f97e00"),
        (100_000, "fa47c35000"), (3.4028234663852886e+38, "fa7f7fffff"), (65505, "fa477fe100"),
        (1.1, "fb3ff199999999999a"), (1e300, "fb7e37e43c8800759c"), (2.9802322387695312e-08, "fa33000000"),
    ] as [(Double, String)])
    func floatsTakeTheShortestFormThatKeepsThem(value: Double, hex: String) throws {
        #expect(Self.hex(try cbor.encode(.float(value))) == hex)
        let back = try cbor.decode(try cbor.encode(.float(value)))
        #expect(back.doubleValue.map { $0.bitPattern == value.bitPattern || ($0.isNaN && value.isNaN) } == true)
    }

    @Test func lengthsAreDefiniteAndShortest() throws {
        #expect(Self.hex(try cbor.encode(.string(String(repeating: "a", count: 24)))).hasPrefix("7818"))
        #expect(Self.hex(try cbor.encode(.bytes([UInt8](repeating: 1, count: 256)))).hasPrefix("590100"))
        #expect(Self.hex(try cbor.encode(.array([Value](repeating: nil, count: 24)))).hasPrefix("9818"))
        #expect(Self.hex(try cbor.encode(["a": []])) == "a1616180")
    }

    @Test func deterministicEncodingSortsKeysByTheirEncodedBytes() throws {
        // Shorter keys first (their heads are smaller), then bytewise: "b" < "aa" < "ab" < "é".
        let value: Value = ["ab": 1, "é": 2, "b": 3, "aa": 4, "": 5]
        let deterministic = CBORFormat(options: .init(isDeterministic: true))
        let sorted = try deterministic.decode(try deterministic.encode(value))
        #expect(sorted.objectValue?.keys == ["", "b", "aa", "ab", "é"])
        #expect(try cbor.decode(try cbor.encode(value)).objectValue?.keys == ["ab", "é", "b", "aa", ""])
        // Kept maps sort too: 1 (0x01) < -1 (0x20) < "a" (0x61 0x61).
        let kept: Value = .tagged("cbor.map", [["a", 1], [-1, 2], [1, 3]])
        #expect(Self.hex(try deterministic.encode(kept)) == "a30103200261610" + "1")
        // Nested maps are sorted as well, and the same value always gives the same bytes.
        let nested: Value = ["z": ["y": 1, "x": 2], "a": [["k2": nil, "k1": nil]]]
        #expect(Self.hex(try deterministic.encode(nested)) == "a2616181a2626b31f6626b32f6617aa2617802617901")
    }

    /// Maps that are keys of maps, 40 deep: each key is encoded once to sort it and its bytes
    /// written as they are (encoding each again to write it took 2^40 steps, a 62-byte fuzz
    /// input seconds); the bytes are those of the same value with its pairs already in order.
    @Test func deterministicMapsNestedAsKeysEncodeEachKeyOnce() throws {
        var value: Value = .tagged("cbor.map", [[1, 2], [0, 1]])
        var inOrder: Value = .tagged("cbor.map", [[0, 1], [1, 2]])
        for depth in 0..<40 {
            value = .tagged("cbor.map", [[value, .integer(Int64(depth))]])
            inOrder = .tagged("cbor.map", [[inOrder, .integer(Int64(depth))]])
        }
        let deterministic = CBORFormat(options: .init(isDeterministic: true))
        let encoded = try deterministic.encode(value)
        #expect(encoded == (try cbor.encode(inOrder)))
    }

    @Test func datesAreEpochSecondsOrText() throws {
        let whole = Value.date(Date(timeIntervalSince1970: 1_363_896_240))
        let half = Value.date(Date(timeIntervalSince1970: 1_363_896_240.5))
        #expect(Self.hex(try cbor.encode(whole)) == "c11a514b67b0")
        #expect(Self.hex(try cbor.encode(half)) == "c1fb41d452d9ec200000")
        #expect(Self.hex(try cbor.encode(.date(Date(timeIntervalSince1970: -1)))) == "c120")
        let text = CBORFormat(options: .init(dateEncoding: .text))
        #expect(Self.hex(try text.encode(whole)) == "c074323031332d30332d32315432303a30343a30305a")
        #expect(try text.decode(try text.encode(half)) == half)
    }

    @Test func tagsSimpleValuesAndOtherTaggedValues() throws {
        #expect(Self.hex(try cbor.encode(.tagged("cbor.tag.32", "a"))) == "d8206161")
        #expect(Self.hex(try cbor.encode(.tagged("cbor.undefined", .null))) == "f7")
        #expect(Self.hex(try cbor.encode(.tagged("cbor.simple", 16))) == "f0")
        #expect(Self.hex(try cbor.encode(.tagged("cbor.simple", 255))) == "f8ff")
        // Tags of other formats (a property-list UID, a MessagePack extension) write their value.
        #expect(Self.hex(try cbor.encode(.tagged("uid", 7))) == "07")
        for bad: Value in [.tagged("cbor.simple", 20), .tagged("cbor.simple", 256), .tagged("cbor.map", 1),
                           .tagged("cbor.map", [[1]]), .number("not a number")] {
            let error = #expect(throws: FormatError.self) { try cbor.encode(bad) }
            #expect(error?.code == .unsupportedValue)
        }
    }

    @Test func hugeIntegersNeedTheBignumLimit() throws {
        let digits = "1" + String(repeating: "0", count: 4000)
        let error = #expect(throws: FormatError.self) { try cbor.encode(.number(digits)) }
        #expect(error?.code == .unsupportedValue)
        let roomy = CBORFormat(options: .init(maxBignumBytes: 4096))
        #expect(try roomy.decode(try roomy.encode(.number(digits))) == .number(digits))
    }

    @Test func deepValuesEncodeAndTheReaderStopsAtItsDepthLimit() throws {
        var deep: Value = 1
        for _ in 0..<1000 { deep = [deep] }
        let bytes = try cbor.encode(deep)
        #expect(bytes == [UInt8](repeating: 0x81, count: 1000) + [0x01])
        let error = #expect(throws: FormatError.self) { try cbor.decode(bytes) }
        #expect(error?.limit?.name == "maxDepth")
        #expect(try cbor.decode(bytes, limits: DecodingLimits(maxDepth: 1000)) == deep)
    }
}
