/// The significant decimal digits of a double, and their rounding to fewer digits, without Foundation's
/// `String(format:)` (which would link all of Foundation and ICU into `parley`).
enum DecimalDigits {
    /// The digits (ASCII, no leading zeros) and exponent of a positive finite double, such that the value is
    /// `0.<digits> × 10^exponent`, from Swift's shortest round-trip text of the double.
    static func of(_ number: Double) -> (digits: [UInt8], exponent: Int) {
        let text = Array(number.description.utf8)
        var mantissa = text[...]
        var exponent = 0
        if let e = text.firstIndex(of: UInt8(ascii: "e")) {
            mantissa = text[..<e]
            exponent = Int(String(decoding: text[(e + 1)...], as: UTF8.self)) ?? 0
        }
        var digits: [UInt8] = []
        var pointSeen = false
        var integerDigits = 0
        for byte in mantissa {
            if byte == UInt8(ascii: ".") {
                pointSeen = true
                continue
            }
            if !pointSeen { integerDigits += 1 }
            digits.append(byte)
        }
        var leading = 0
        while leading < digits.count - 1, digits[leading] == UInt8(ascii: "0") { leading += 1 }
        digits.removeFirst(leading)
        while digits.count > 1, digits.last == UInt8(ascii: "0") { digits.removeLast() }
        return (digits, exponent + integerDigits - leading)
    }

    /// `digits` rounded to `precision` significant digits, half to even, as `%.*g` rounds.
    static func round(_ digits: [UInt8], _ exponent: Int, to precision: Int) -> ([UInt8], Int) {
        guard digits.count > precision else { return (digits, exponent) }
        var kept = Array(digits[..<precision])
        let rest = digits[precision...]
        let first = rest.first ?? UInt8(ascii: "0")
        let exactlyHalf = first == UInt8(ascii: "5") && rest.dropFirst().allSatisfy { $0 == UInt8(ascii: "0") }
        let lastIsOdd = ((kept.last ?? 0) - UInt8(ascii: "0")) % 2 == 1
        guard first > UInt8(ascii: "5") || (first == UInt8(ascii: "5") && (!exactlyHalf || lastIsOdd)) else {
            return (kept, exponent)
        }
        var index = kept.count - 1
        while index >= 0 {
            if kept[index] == UInt8(ascii: "9") {
                kept[index] = UInt8(ascii: "0")
                index -= 1
            } else {
                kept[index] += 1
                return (kept, exponent)
            }
        }
        return ([UInt8(ascii: "1")] + kept.dropLast(), exponent + 1)
    }

    /// The double nearest `0.<digits> × 10^exponent` (negated when `isNegative`), as `Double(text)` reads it:
    /// at most 15 digits scaled by a power of ten up to 10^22 are both exact in a double, so one multiplication
    /// or division rounds once, correctly; other values go through the text.
    static func double(_ digits: [UInt8], exponent: Int, isNegative: Bool) -> Double? {
        let scale = exponent - digits.count
        if digits.count <= 15, (-22...22).contains(scale) {
            var mantissa: UInt64 = 0
            for digit in digits { mantissa = mantissa * 10 + UInt64(digit - UInt8(ascii: "0")) }
            let power = exactPowersOfTen[abs(scale)]
            let magnitude = scale < 0 ? Double(mantissa) / power : Double(mantissa) * power
            return isNegative ? -magnitude : magnitude
        }
        return Double((isNegative ? "-" : "") + "0." + String(decoding: digits, as: UTF8.self) + "e\(exponent)")
    }

    /// 10^0 through 10^22, each exact in a double.
    private static let exactPowersOfTen: [Double] = (0...22).map { power in
        var value = 1.0
        for _ in 0..<power { value *= 10 }
        return value
    }
}
