import Parley

/// A JSON number as exact decimal: `digits × 10^exponent` with a sign, so comparisons and
/// `multipleOf` never round (`19.99` is a multiple of `0.01`). A `Double` counts as the
/// shortest decimal text that reads back as it, which is the number its author wrote.
struct ExactNumber: Sendable, Hashable {
    /// Whether the number is below zero.
    let negative: Bool
    /// Significant decimal digits (ASCII), no leading or trailing zeros; empty for zero.
    let digits: [UInt8]
    /// The power of ten the digits are scaled by.
    let exponent: Int

    /// The value of `value` when it is a number (tags unwrapped), else `nil`.
    init?(_ value: Value) {
        switch value {
        case .integer(let i): self.init(text: String(i))
        case .float(let d):
            guard d.isFinite else { return nil }
            self.init(text: d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)")
        case .number(let text): self.init(text: text)
        case .tagged(_, let inner): self.init(inner)
        default: return nil
        }
    }

    /// Parses JSON number text (also `1e5`, `1.5E-3`); `nil` when it is not a number or its
    /// exponent is beyond ±1,000,000,000.
    init?(text: String) {
        var utf8 = Array(text.utf8)[...]
        var negative = false
        if utf8.first == UInt8(ascii: "-") {
            negative = true
            utf8 = utf8.dropFirst()
        } else if utf8.first == UInt8(ascii: "+") {
            utf8 = utf8.dropFirst()
        }
        var digits: [UInt8] = []
        var exponent = 0
        var seenDigit = false
        var seenPoint = false
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let c = utf8[index]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                seenDigit = true
                if !(digits.isEmpty && c == UInt8(ascii: "0")) { digits.append(c) }
                if seenPoint { exponent -= 1 }
            } else if c == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index += 1
        }
        guard seenDigit else { return nil }
        if index < utf8.endIndex {
            guard utf8[index] == UInt8(ascii: "e") || utf8[index] == UInt8(ascii: "E") else { return nil }
            guard let e = Int(String(decoding: utf8[(index + 1)...], as: UTF8.self)),
                abs(e) <= 1_000_000_000
            else { return nil }
            exponent += e
        }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        self.negative = negative && !digits.isEmpty
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
    }

    /// Whether the number is zero.
    var isZero: Bool { digits.isEmpty }

    /// Whether the number has no fractional part.
    var isInteger: Bool { exponent >= 0 }

    /// The power of ten of the leading digit (`123` → 2, `0.05` → -2).
    private var magnitude: Int { digits.count - 1 + exponent }

    /// Orders two numbers exactly.
    static func compare(_ a: ExactNumber, _ b: ExactNumber) -> Int {
        if a.negative != b.negative { return a.negative ? -1 : 1 }
        let sign = a.negative ? -1 : 1
        if a.isZero || b.isZero {
            if a.isZero && b.isZero { return 0 }
            return a.isZero ? -sign : sign
        }
        if a.magnitude != b.magnitude { return a.magnitude < b.magnitude ? -sign : sign }
        let count = max(a.digits.count, b.digits.count)
        for i in 0..<count {
            let x = i < a.digits.count ? a.digits[i] : UInt8(ascii: "0")
            let y = i < b.digits.count ? b.digits[i] : UInt8(ascii: "0")
            if x != y { return x < y ? -sign : sign }
        }
        return 0
    }

    /// The most zeros `isMultiple(of:)` appends while aligning exponents before it gives up.
    static let maxAlignment = 100_000

    /// Whether `self` is an integer multiple of `divisor` (which is not zero), computed in
    /// decimal; `nil` when the divisor has more than 18 significant digits or aligning the
    /// exponents would take more than ``maxAlignment`` digits (the caller then uses `Double`).
    func isMultiple(of divisor: ExactNumber) -> Bool? {
        if isZero { return true }
        guard !divisor.isZero, divisor.digits.count <= 18 else { return nil }
        var modulus: UInt64 = 0
        for d in divisor.digits { modulus = modulus * 10 + UInt64(d - UInt8(ascii: "0")) }
        // self / divisor = digits × 10^shift / divisorDigits. Digits carry no trailing zeros, so
        // with a negative shift the quotient always has a fractional part.
        let shift = exponent - divisor.exponent
        if shift < 0 { return false }
        guard shift <= Self.maxAlignment else { return nil }
        return remainder(of: digits, zeros: shift, modulo: modulus) == 0
    }

    /// `(digits followed by zeros) mod modulus`, one digit at a time.
    private func remainder(of digits: [UInt8], zeros: Int, modulo modulus: UInt64) -> UInt64 {
        var r: UInt64 = 0
        func step(_ d: UInt64) {
            let wide = r.multipliedFullWidth(by: 10)
            let (sum, carry) = wide.low.addingReportingOverflow(d)
            let high = wide.high + (carry ? 1 : 0)
            r = modulus.dividingFullWidth((high: high, low: sum)).remainder
        }
        for d in digits { step(UInt64(d - UInt8(ascii: "0"))) }
        for _ in 0..<zeros { step(0) }
        return r
    }
}
