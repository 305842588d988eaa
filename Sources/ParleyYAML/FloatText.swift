package import Parley

/// Writing a `Double` as text that reads back as the same `Double`: Swift's shortest round-trip
/// digits (`description`), with the common short decimals (`12.25`, `3.0`) written straight into
/// the output instead of through a `String`.
package enum FloatText {
    /// The text of a float that reads back as the same `Double`.
    static func text(_ double: Double) -> String {
        if double.isNaN { return ".nan" }
        if double.isInfinite { return double < 0 ? "-.inf" : ".inf" }
        return double.description
    }

    /// Appends ``text(_:)``'s bytes.
    static func append(_ double: Double, to output: ByteOutput) {
        if !appendShortDecimal(double, to: output) { output.append(contentsOf: text(double)) }
    }

    /// The largest magnitude written as a short decimal: `description` writes larger ones with an exponent.
    private static let maxShortDecimal: Double = 0x1p53
    /// The smallest magnitude written as a short decimal (`description` writes an exponent below 0.0001).
    private static let minShortDecimal: Double = 0.001

    /// Appends `double` as `description` writes it, and returns `true`, when it is a decimal of
    /// magnitude from 0.001 to below 2^53 whose shortest round-trip digits fit 53 bits and have at
    /// most 19 after the point; returns `false`, writing nothing, otherwise.
    ///
    /// `description` writes the fewest digits that read back as the same `Double` and, among
    /// those, the ones nearest to its exact value. So does this: for 1, 2, … digits after the
    /// point it takes the integers on either side of the exact value times 10^digits (computed
    /// exactly, from the 128-bit product of its significand and the power of ten), keeps those
    /// that read back (a division of two exact `Double`s rounds as reading the decimal does), and
    /// writes the nearer; an exact tie is left to `description`.
    package static func appendShortDecimal(_ double: Double, to output: ByteOutput) -> Bool {
        let magnitude = double.magnitude
        // NaN fails both comparisons.
        guard magnitude >= minShortDecimal, magnitude < maxShortDecimal else { return false }
        // magnitude = significand / 2^shift exactly, shift at most 62 (it is normal, at least
        // 0.001); an integer when the shift is 0 or the bits it shifts out are.
        let shift = UInt64(52 - (Int(magnitude.exponentBitPattern) - 1_023))
        let significand = magnitude.significandBitPattern | 1 << 52
        let fractionMask: UInt64 = 1 &<< shift - 1
        if shift == 0 || significand & fractionMask == 0 {
            output.append(decimal: Int64(double))
            output.append(".0")
            return true
        }
        let half: UInt64 = 1 &<< (shift - 1)
        // The power of ten as an integer and as a `Double` (exact: 10^19 is below 2^64 and 5^19 below 2^53).
        var power: UInt64 = 1
        var scale = 1.0
        for digits in 1...19 {
            power &*= 10
            scale *= 10
            let (high, low) = significand.multipliedFullWidth(by: power)
            // The digits' integer is the product shifted right (every shift here is below 64): it
            // must fit 53 bits.
            guard high &>> shift == 0 else { return false }
            let below = high &<< (64 - shift) | low &>> shift
            guard below < 1 << 53 - 1 else { return false }
            let remainder = low & fractionMask
            let roundsUp = remainder > half
            let nearer = roundsUp ? below + 1 : below, other = roundsUp ? below : below + 1
            // Below 2^53, so exact as `Double`s, and converted as signed integers (one instruction).
            let readsBack = { (digits: UInt64) in Double(Int64(bitPattern: digits)) / scale == magnitude }
            let written: UInt64
            if readsBack(nearer) {
                if remainder == half && readsBack(other) { return false }
                written = nearer
            } else if readsBack(other) {
                written = other
            } else {
                continue
            }
            appendDecimal(written, fractionDigits: digits, negative: double < 0, to: output)
            return true
        }
        return false
    }

    /// Appends `value / 10^fractionDigits` with exactly `fractionDigits` digits after the point
    /// (and at least one before it), signed when `negative`.
    private static func appendDecimal(_ value: UInt64, fractionDigits: Int, negative: Bool, to output: ByteOutput) {
        // At most 16 digits (below 2^53), a zero before the point, the point and the sign; the
        // digits are written from the last.
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { buffer in
            var start = buffer.count
            var rest = value
            var written = 0
            while rest != 0 || written <= fractionDigits {
                if written == fractionDigits {
                    start &-= 1
                    buffer[start] = UInt8(ascii: ".")
                }
                start &-= 1
                buffer[start] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
                rest /= 10
                written &+= 1
            }
            if negative {
                start &-= 1
                buffer[start] = UInt8(ascii: "-")
            }
            let text = UnsafeRawBufferPointer(rebasing: buffer[start...])
            output.append(contentsOf: text.assumingMemoryBound(to: UInt8.self))
        }
    }
}
