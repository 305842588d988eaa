import Foundation
import Parley
import ParleyTestKit

/// Random values of every kind CBOR holds, from a seeded generator, and the comparison the
/// interoperability tests use.
enum RandomValues {
    static func value(_ g: inout SplitMix64, depth: Int) -> Value {
        let kinds = depth < 4 ? 16 : 12
        switch Int(g.next() % UInt64(kinds)) {
        case 0: return .null
        case 1: return .bool(g.next() % 2 == 0)
        case 2:
            let bounds: [Int64] = [23, 24, 255, 256, 65535, 65536, 4_294_967_295, 4_294_967_296, .max]
            let bound = bounds[Int(g.next() % UInt64(bounds.count))]
            let magnitude = Int64(g.next() % UInt64(bound))
            return .integer(g.next() % 2 == 0 ? magnitude : -magnitude - 1)
        case 3:
            // Beyond 64 bits (bignums), or exactly at the edges of the heads.
            let digits = 20 + Int(g.next() % 40)
            let text = "1" + (1..<digits).map { _ in String(g.next() % 10) }.joined()
            let edges = ["18446744073709551615", "-18446744073709551616", "9223372036854775808", text, "-" + text]
            return .number(edges[Int(g.next() % UInt64(edges.count))])
        case 4:
            // Decimals no float holds: tag 4 decimal fractions.
            return .number("\(g.next() % 2 == 0 ? "-" : "")\(g.next() % 1_000_000).\(g.next())\(g.next() % 1000)")
        case 5:
            let specials: [Double] = [.nan, .infinity, -.infinity, -0.0, 0, 1.5, 65504, 5.960464477539063e-08,
                                      100_000, 3.4028234663852886e+38, 1.1, 1e300]
            if g.next() % 2 == 0 { return .float(specials[Int(g.next() % UInt64(specials.count))]) }
            let d = Double(bitPattern: g.next())
            return .float(d.isNaN ? 0.25 : d)
        case 6:
            let alphabet = Array("abcXYZ019 \"\\\n\téßüñ水中文😀𝄞\u{0}\u{1F}\u{7F}")
            let length = [0, 1, 5, 23, 24, 300][Int(g.next() % 6)]
            return .string(String((0..<length).map { _ in alphabet[Int(g.next() % UInt64(alphabet.count))] }))
        case 7:
            let length = [0, 1, 23, 24, 256][Int(g.next() % 5)]
            return .bytes((0..<length).map { _ in UInt8(truncatingIfNeeded: g.next()) })
        case 8:
            let seconds = Double(Int64(g.next() % 6_000_000_000) - 2_000_000_000)
            let milliseconds = g.next() % 2 == 0 ? 0 : Double(g.next() % 1000) / 1000
            return .date(Date(timeIntervalSince1970: seconds + milliseconds))
        case 9:
            let tags: [UInt64] = [7, 23, 99, 999, 65536, 1 << 40]
            return .tagged("cbor.tag.\(tags[Int(g.next() % UInt64(tags.count))])", value(&g, depth: depth + 1))
        case 10:
            let number = Int64(g.next() % 2 == 0 ? g.next() % 20 : 32 + g.next() % 224)
            return .tagged("cbor.simple", .integer(number))
        case 11: return .tagged("cbor.undefined", .null)
        case 12, 13: return .array((0..<Int(g.next() % 6)).map { _ in value(&g, depth: depth + 1) })
        default:
            let suffixes = ["", "é", "😀"]
            return .object(Value.Object((0..<Int(g.next() % 6)).map { i in
                Value.Object.Member(key: "k\(i)\(suffixes[Int(g.next() % 3)])", value: value(&g, depth: depth + 1))
            }))
        }
    }

    /// Equal, except that NaN matches NaN, a float's sign counts, dates agree to a microsecond,
    /// and object members may come in another order (canonical encoders sort them).
    static func matches(_ expected: Value, _ actual: Value) -> Bool {
        switch (expected, actual) {
        case (.float(let e), .float(let a)): return (e.isNaN && a.isNaN) || (e == a && e.sign == a.sign)
        case (.date(let e), .date(let a)): return abs(e.timeIntervalSince1970 - a.timeIntervalSince1970) < 1e-6
        case (.array(let e), .array(let a)): return e.count == a.count && zip(e, a).allSatisfy { matches($0, $1) }
        case (.object(let e), .object(let a)):
            let sortedActual = a.members.sorted { $0.key < $1.key }
            return e.count == a.count && zip(e.members.sorted { $0.key < $1.key }, sortedActual).allSatisfy {
                $0.key == $1.key && matches($0.value, $1.value)
            }
        case (.tagged(let te, let e), .tagged(let ta, let a)): return te == ta && matches(e, a)
        default: return expected == actual
        }
    }
}
