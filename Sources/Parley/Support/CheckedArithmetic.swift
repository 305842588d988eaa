/// Checked reading of the numbers that come from input — lengths, offsets, counts and sizes —
/// so that no hostile value can trap on overflow or reach memory outside its buffer.
///
/// Every reader that takes a number from the bytes it reads goes through these: a number is
/// parsed with ``nonNegativeDecimal(_:)`` or ``nonNegativeHexadecimal(_:)`` (no sign, no
/// overflow), a sum with ``sum(_:_:)``, and a length is checked against what is left with
/// ``fits(_:in:from:)`` (`count <= limit - offset`, never `offset + count`, which can overflow).
package enum CheckedArithmetic {
    /// The value of ASCII decimal digits, or `nil` when `digits` is empty, holds anything but
    /// `0`–`9` (a sign, a space) or does not fit in `Int`.
    package static func nonNegativeDecimal(_ digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, carry) = shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = next
        }
        return value
    }

    /// The value of decimal text (see ``nonNegativeDecimal(_:)``), such as a `Content-Length` value.
    package static func nonNegativeDecimal(_ text: some StringProtocol) -> Int? {
        nonNegativeDecimal(text.utf8)
    }

    /// The value of ASCII hexadecimal digits (either case), or `nil` when `digits` is empty,
    /// holds anything else or does not fit in `Int`.
    package static func nonNegativeHexadecimal(_ digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard let digit = ByteClass.hexDigitValue(byte) else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 16)
            guard !overflow else { return nil }
            value = shifted | Int(digit)
        }
        return value
    }

    /// The value of hexadecimal text (see ``nonNegativeHexadecimal(_:)``), such as a chunk size.
    package static func nonNegativeHexadecimal(_ text: some StringProtocol) -> Int? {
        nonNegativeHexadecimal(text.utf8)
    }

    /// `a + b`, or `nil` when the sum does not fit in `Int`.
    package static func sum(_ a: Int, _ b: Int) -> Int? {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : result
    }

    /// `a × b`, or `nil` when the product does not fit in `Int`.
    package static func product(_ a: Int, _ b: Int) -> Int? {
        let (result, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? nil : result
    }

    /// Whether `count` items from `offset` lie within `0..<limit`: `count` and `offset` are
    /// non-negative and `count <= limit - offset` (checked without computing `offset + count`).
    package static func fits(_ count: Int, in limit: Int, from offset: Int) -> Bool {
        offset >= 0 && count >= 0 && offset <= limit && count <= limit - offset
    }

    /// `offset + count` clamped to `limit` for a non-negative `count` and `0 <= offset <= limit`:
    /// the end of a window of at most `count` items that cannot overflow or pass `limit`.
    package static func end(of count: Int, from offset: Int, clampedTo limit: Int) -> Int {
        count >= limit - offset ? limit : offset + max(0, count)
    }

    /// The budget of an expansion limit: `64 KiB + ratio × inputBytes`, saturating at `Int.max`
    /// (as YAML aliases, XML entities and binary property list references count it).
    package static func expansionBudget(ratio: Int, inputBytes: Int) -> Int {
        product(max(0, ratio), max(0, inputBytes)).flatMap { sum($0, 65_536) } ?? Int.max
    }
}
