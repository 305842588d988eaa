/// The value of a number written in JSON's number grammar, normalised so two spellings of one
/// decimal value compare equal (`1.50`, `15e-1` and `0.15E1` give the same `DecimalText`).
/// The exponent is exact (CBOR writes it as a decimal fraction's); text whose exponent does not
/// fit `Int` gives `nil`. The binary formats use it to tell whether a `Double` keeps a number.
package struct DecimalText: Equatable {
    package var isNegative: Bool
    /// Significant digits (ASCII), no leading or trailing zeros; empty for zero.
    package var digits: [UInt8]
    /// The power of ten the digits are multiplied by.
    package var exponent: Int

    /// Parses `text`, or returns `nil` when it is not a JSON number (Swift's `inf` or `nan`).
    package init?(_ text: String) {
        var utf8 = Array(text.utf8)[...]
        isNegative = utf8.first == UInt8(ascii: "-")
        if isNegative { utf8 = utf8.dropFirst() }
        var digits: [UInt8] = []
        var exponent = 0
        var seenDigit = false
        var inFraction = false
        while let byte = utf8.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            utf8 = utf8.dropFirst()
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                seenDigit = true
                if inFraction { exponent -= 1 }
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
            case UInt8(ascii: ".") where !inFraction: inFraction = true
            default: return nil
            }
        }
        guard seenDigit else { return nil }
        if !utf8.isEmpty {
            utf8 = utf8.dropFirst()
            var negativeExponent = false
            if let sign = utf8.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                negativeExponent = sign == UInt8(ascii: "-")
                utf8 = utf8.dropFirst()
            }
            guard !utf8.isEmpty else { return nil }
            guard let written = CheckedArithmetic.nonNegativeDecimal(utf8),
                  let sum = CheckedArithmetic.sum(exponent, negativeExponent ? -written : written) else { return nil }
            exponent = sum
        }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            guard let sum = CheckedArithmetic.sum(exponent, 1) else { return nil }
            exponent = sum
        }
        if digits.isEmpty { exponent = 0 }
        self.digits = digits
        self.exponent = exponent
    }
}
