import FoundationEssentials
import Parley
import ParleyMessagePack
import Testing

/// Hand-written byte vectors from the MessagePack specification, at every type boundary.
@Suite struct MessagePackVectorTests {
    let msgpack = MessagePackFormat()

    /// A value and the exact bytes it is written as (and read back from).
    struct Vector: Sendable, CustomTestStringConvertible {
        var value: Value
        var bytes: [UInt8]
        var testDescription: String { "\(value.kindName) \(bytes.prefix(9).map { String($0, radix: 16) })" }
        init(_ value: Value, _ bytes: [UInt8]) { self.value = value; self.bytes = bytes }
    }

    static let integers: [Vector] = [
        .init(0, [0x00]), .init(127, [0x7F]),
        .init(128, [0xCC, 0x80]), .init(255, [0xCC, 0xFF]),
        .init(256, [0xCD, 0x01, 0x00]), .init(65_535, [0xCD, 0xFF, 0xFF]),
        .init(65_536, [0xCE, 0x00, 0x01, 0x00, 0x00]), .init(4_294_967_295, [0xCE, 0xFF, 0xFF, 0xFF, 0xFF]),
        .init(4_294_967_296, [0xCF, 0, 0, 0, 0x01, 0, 0, 0, 0]),
        .init(.integer(Int64.max), [0xCF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        .init(.number("9223372036854775808"), [0xCF, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        .init(.number("18446744073709551615"), [0xCF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        .init(-1, [0xFF]), .init(-32, [0xE0]),
        .init(-33, [0xD0, 0xDF]), .init(-128, [0xD0, 0x80]),
        .init(-129, [0xD1, 0xFF, 0x7F]), .init(-32_768, [0xD1, 0x80, 0x00]),
        .init(-32_769, [0xD2, 0xFF, 0xFF, 0x7F, 0xFF]), .init(.integer(Int64(Int32.min)), [0xD2, 0x80, 0, 0, 0]),
        .init(.integer(Int64(Int32.min) - 1), [0xD3, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF]),
        .init(.integer(Int64.min), [0xD3, 0x80, 0, 0, 0, 0, 0, 0, 0]),
    ]

    static let scalars: [Vector] = [
        .init(nil, [0xC0]), .init(false, [0xC2]), .init(true, [0xC3]),
        .init(1.5, [0xCB, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0]),
        .init(-0.0, [0xCB, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        .init(.float(.infinity), [0xCB, 0x7F, 0xF0, 0, 0, 0, 0, 0, 0]),
        .init("", [0xA0]), .init("a", [0xA1, 0x61]), .init("é", [0xA2, 0xC3, 0xA9]),
        .init(.bytes([]), [0xC4, 0x00]), .init(.bytes([1, 2]), [0xC4, 0x02, 0x01, 0x02]),
        .init([], [0x90]), .init([1, [2]], [0x92, 0x01, 0x91, 0x02]),
        .init([:], [0x80]), .init(["a": 1, "b": [true]], [0x82, 0xA1, 0x61, 0x01, 0xA1, 0x62, 0x91, 0xC3]),
        // Extensions: each fixext size, ext 8 and ext 16, negative types.
        .init(.tagged("msgpack.ext.5", .bytes([0xAA])), [0xD4, 0x05, 0xAA]),
        .init(.tagged("msgpack.ext.5", .bytes([1, 2])), [0xD5, 0x05, 1, 2]),
        .init(.tagged("msgpack.ext.-2", .bytes([1, 2, 3, 4])), [0xD6, 0xFE, 1, 2, 3, 4]),
        .init(
            .tagged("msgpack.ext.127", .bytes(Array(repeating: 7, count: 8))),
            [0xD7, 0x7F] + Array(repeating: 7, count: 8)),
        .init(
            .tagged("msgpack.ext.0", .bytes(Array(repeating: 9, count: 16))),
            [0xD8, 0x00] + Array(repeating: 9, count: 16)),
        .init(.tagged("msgpack.ext.1", .bytes([1, 2, 3])), [0xC7, 0x03, 0x01, 1, 2, 3]),
        .init(.tagged("msgpack.ext.-128", .bytes([])), [0xC7, 0x00, 0x80]),
    ]

    static let timestamps: [Vector] = [
        // timestamp 32: seconds only.
        .init(.date(Date(timeIntervalSince1970: 1)), [0xD6, 0xFF, 0, 0, 0, 0x01]),
        .init(.date(Date(timeIntervalSince1970: 4_294_967_295)), [0xD6, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        // timestamp 64: 30-bit nanoseconds above 34-bit seconds. 0.5 s = 500 000 000 ns = 0x1DCD6500.
        .init(.date(Date(timeIntervalSince1970: 1.5)), [0xD7, 0xFF, 0x77, 0x35, 0x94, 0x00, 0x00, 0x00, 0x00, 0x01]),
        .init(.date(Date(timeIntervalSince1970: 4_294_967_296)), [0xD7, 0xFF, 0, 0, 0, 0x01, 0, 0, 0, 0]),
        // timestamp 96: before 1970, or seconds beyond 34 bits.
        .init(
            .date(Date(timeIntervalSince1970: -1)),
            [0xC7, 0x0C, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        .init(
            .date(Date(timeIntervalSince1970: 17_179_869_184)),
            [0xC7, 0x0C, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0x04, 0, 0, 0, 0])
    ]

    @Test(arguments: integers + scalars + timestamps)
    func writesTheSmallestForm(vector: Vector) throws {
        #expect(try msgpack.encode(vector.value) == vector.bytes)
    }

    @Test(arguments: integers + scalars + timestamps)
    func readsTheVector(vector: Vector) throws {
        #expect(try msgpack.decode(vector.bytes) == vector.value)
    }

    /// Length boundaries: fix form, 8-, 16- and 32-bit headers for str, bin, array and map.
    @Test(arguments: [
        (31, [0xBF]), (32, [0xD9, 0x20]), (255, [0xD9, 0xFF]), (256, [0xDA, 0x01, 0x00]),
        (65_535, [0xDA, 0xFF, 0xFF]), (65_536, [0xDB, 0x00, 0x01, 0x00, 0x00]),
    ] as [(Int, [UInt8])])
    func stringLengthBoundaries(length: Int, header: [UInt8]) throws {
        let value = Value.string(String(repeating: "x", count: length))
        let bytes = try msgpack.encode(value)
        #expect(Array(bytes.prefix(header.count)) == header)
        #expect(bytes.count == header.count + length)
        #expect(try msgpack.decode(bytes) == value)
    }

    @Test(
        arguments: [
            (255, [0xC4, 0xFF]), (256, [0xC5, 0x01, 0x00]), (65_535, [0xC5, 0xFF, 0xFF]),
            (65_536, [0xC6, 0x00, 0x01, 0x00, 0x00])
        ] as [(Int, [UInt8])])
    func binaryLengthBoundaries(length: Int, header: [UInt8]) throws {
        let value = Value.bytes(Array(repeating: 0xAB, count: length))
        let bytes = try msgpack.encode(value)
        #expect(Array(bytes.prefix(header.count)) == header)
        #expect(try msgpack.decode(bytes) == value)
    }

    @Test(
        arguments: [
            (15, [0x9F], [0x8F]), (16, [0xDC, 0x00, 0x10], [0xDE, 0x00, 0x10]),
            (65_535, [0xDC, 0xFF, 0xFF], [0xDE, 0xFF, 0xFF]),
            (65_536, [0xDD, 0x00, 0x01, 0x00, 0x00], [0xDF, 0x00, 0x01, 0x00, 0x00])
        ] as [(Int, [UInt8], [UInt8])])
    func containerCountBoundaries(count: Int, arrayHeader: [UInt8], mapHeader: [UInt8]) throws {
        let array = Value.array(Array(repeating: nil, count: count))
        let arrayBytes = try msgpack.encode(array)
        #expect(Array(arrayBytes.prefix(arrayHeader.count)) == arrayHeader)
        #expect(try msgpack.decode(arrayBytes) == array)
        let map = Value.object(Value.Object((0..<count).map { .init(key: "\($0)", value: nil) }))
        let mapBytes = try msgpack.encode(map)
        #expect(Array(mapBytes.prefix(mapHeader.count)) == mapHeader)
        #expect(try msgpack.decode(mapBytes) == map)
    }

    @Test func readsEveryWiderFormThanNeeded() throws {
        #expect(try msgpack.decode([0xCC, 0x05]) == 5)
        #expect(try msgpack.decode([0xCD, 0x00, 0x00]) == 0)
        #expect(try msgpack.decode([0xD0, 0x7F]) == 127)
        #expect(try msgpack.decode([0xD3, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == -1)
        #expect(try msgpack.decode([0xD9, 0x01, 0x61]) == "a")
        #expect(try msgpack.decode([0xDC, 0x00, 0x01, 0xC0]) == [nil])
        #expect(try msgpack.decode([0xDF, 0x00, 0x00, 0x00, 0x01, 0xA1, 0x6B, 0xC3]) == ["k": true])
        // float 32: 1.5 and 0.1 (widened exactly, so not the Double 0.1).
        #expect(try msgpack.decode([0xCA, 0x3F, 0xC0, 0x00, 0x00]) == 1.5)
        #expect(try msgpack.decode([0xCA, 0x3D, 0xCC, 0xCC, 0xCD]) == .float(Double(Float(0.1))))
        // timestamp 96 with nanoseconds; ext 16 header.
        #expect(try msgpack.decode([0xC7, 0x0C, 0xFF, 0x1D, 0xCD, 0x65, 0x00, 0, 0, 0, 0, 0, 0, 0, 0x02])
                == .date(Date(timeIntervalSince1970: 2.5)))
        #expect(try msgpack.decode([0xC8, 0x00, 0x01, 0x03, 0xEE]) == .tagged("msgpack.ext.3", .bytes([0xEE])))
    }

    @Test func integerMapKeysBecomeTheirDecimalText() throws {
        #expect(try msgpack.decode([0x82, 0x01, 0xA1, 0x61, 0xFF, 0xC3]) == ["1": "a", "-1": true])
    }

    @Test func numbersKeepTheirExactValueOrThrow() throws {
        #expect(try msgpack.encode(.number("42")) == [0x2A])
        #expect(
            try msgpack.encode(.number("0.30000000000000004")) == [0xCB, 0x3F, 0xD3, 0x33, 0x33, 0x33, 0x33, 0x33, 0x34]
        )
        #expect(try msgpack.encode(.number("3.0e0")) == [0xCB, 0x40, 0x08, 0, 0, 0, 0, 0, 0])
        for inexact in [
            "12345678901234567890123", "1e400", "0.1000000000000000055511151231257827", "-18446744073709551616"
        ] {
            #expect { try msgpack.encode(.number(inexact)) } throws: { ($0 as? FormatError)?.code == .unsupportedValue }
        }
        let rounding = MessagePackFormat(options: .init(roundsInexactNumbers: true))
        #expect(
            try rounding.decode(try rounding.encode(.number("12345678901234567890123")))
                == .float(1.2345678901234568e22))
        #expect { try rounding.encode(.number("1e400")) } throws: { ($0 as? FormatError)?.code == .unsupportedValue }
    }

    @Test func otherTagsWriteTheirInnerValue() throws {
        #expect(try msgpack.encode(.tagged("uid", 9)) == [0x09])
        #expect(try msgpack.encode(.tagged("msgpack.ext.300", .bytes([1]))) == [0xC4, 0x01, 0x01])
    }

    @Test func timestampsRoundToTheNearestNanosecond() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.123456789)
        let decoded = try #require(try msgpack.decode(try msgpack.encode(.date(date))).dateValue)
        #expect(abs(decoded.timeIntervalSince1970 - date.timeIntervalSince1970) < 1e-6)
        #expect(try msgpack.encode(.date(date)).prefix(2) == [0xD7, 0xFF])
    }
}
