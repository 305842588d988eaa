/// The significant decimal digits of a double, and their rounding to fewer digits, without Foundation's
/// `String(format:)` (which would link all of Foundation and ICU into `parley`): the value is
/// `significand × 10^scale`.
struct DecimalDigits {
    /// The digits as an integer (at most 17 of them, trailing zeros dropped).
    var significand: UInt64
    /// How many digits `significand` has.
    var count: Int
    var scale: Int

    /// The digits of a finite number's text in Swift's form (`1249.875`, `1e-05`, `3.4028235e+38`); a sign
    /// is ignored.
    init(_ text: String) {
        var text = text
        (significand, count, scale) = text.withUTF8(Self.parse)
    }

    private static func parse(_ text: UnsafeBufferPointer<UInt8>) -> (UInt64, Int, Int) {
        var significand: UInt64 = 0
        var count = 0
        // Zeros after the last nonzero digit so far, which count only when another nonzero digit follows.
        var pendingZeros = 0
        var fractionDigits = 0
        var pointSeen = false
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        for byte in text {
            switch byte {
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "-") where inExponent: exponentSign = -1
            case UInt8(ascii: "."): pointSeen = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = UInt64(byte - UInt8(ascii: "0"))
                if inExponent {
                    exponent = exponent * 10 + Int(digit)
                    continue
                }
                if pointSeen { fractionDigits += 1 }
                if digit == 0 {
                    if significand != 0 { pendingZeros += 1 }
                    continue
                }
                for _ in 0..<pendingZeros { significand *= 10 }
                significand = significand * 10 + digit
                count += pendingZeros + 1
                pendingZeros = 0
            default: continue
            }
        }
        return (significand, count, pendingZeros - fractionDigits + exponentSign * exponent)
    }

    private init(significand: UInt64, count: Int, scale: Int) {
        self.significand = significand
        self.count = count
        self.scale = scale
    }

    /// The digits rounded to `precision` significant digits, half to even, as `%.*g` rounds.
    func rounded(to precision: Int) -> DecimalDigits {
        guard count > precision else { return self }
        let dropped = count - precision
        let divisor = Self.powersOfTen[dropped]
        var kept = significand / divisor
        let rest = significand % divisor
        let half = divisor / 2
        var scale = scale + dropped
        if rest > half || (rest == half && kept % 2 == 1) { kept += 1 }
        if kept == Self.powersOfTen[precision] {
            kept /= 10
            scale += 1
        }
        return DecimalDigits(significand: kept, count: precision, scale: scale)
    }

    /// The double nearest the value (negated when `isNegative`), as `Double(text)` reads it: at most 15 digits
    /// scaled by a power of ten up to 10^22 are both exact in a double, so one multiplication or division rounds
    /// once, correctly; other values go through the text.
    func double(isNegative: Bool) -> Double? {
        if significand < 1_000_000_000_000_000, (-22...22).contains(scale) {
            let power = Self.exactPowersOfTen[abs(scale)]
            let magnitude = scale < 0 ? Double(significand) / power : Double(significand) * power
            return isNegative ? -magnitude : magnitude
        }
        return Double((isNegative ? "-" : "") + String(significand) + "e" + String(scale))
    }

    /// 10^0 through 10^19.
    private static let powersOfTen: [UInt64] = (0...19).map { power in
        var value: UInt64 = 1
        for _ in 0..<power { value *= 10 }
        return value
    }

    /// 10^0 through 10^22, each exact in a double.
    private static let exactPowersOfTen: [Double] = (0...22).map { power in
        var value = 1.0
        for _ in 0..<power { value *= 10 }
        return value
    }
}
