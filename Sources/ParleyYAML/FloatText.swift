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

    /// 10^0 through 10^19, every power below 2^64.
    private static let powersOfTen: [UInt64] = (0...19).map { power in
        (0..<power).reduce(1) { product, _ in product * 10 }
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
    /// exactly, in 128 bits), keeps those that read back (a division of two exact `Double`s
    /// rounds as reading the decimal does), and writes the nearer; an exact tie is left to `description`.
    package static func appendShortDecimal(_ double: Double, to output: ByteOutput) -> Bool {
        let magnitude = double.magnitude
        // NaN fails both comparisons.
        guard magnitude >= minShortDecimal, magnitude < maxShortDecimal else { return false }
        if magnitude.rounded(.towardZero) == magnitude {
            output.append(decimal: Int64(double))
            output.append(".0")
            return true
        }
        // magnitude = significand / 2^shift exactly: it is normal, and a fraction below 2^53.
        let shift = 52 - Int(magnitude.exponent)
        let significand = UInt128(magnitude.significandBitPattern | 1 << 52)
        let fractionMask = UInt128(1) << shift - 1
        let half = UInt128(1) << (shift - 1)
        return powersOfTen.withUnsafeBufferPointer { powers in
            for digits in 1..<powers.count {
                let product = significand * UInt128(powers[digits])
                let below = product >> shift
                let remainder = product & fractionMask
                guard below + 1 < 1 << 53 else { return false }
                let scale = Double(powers[digits])
                let belowReadsBack = Double(UInt64(below)) / scale == magnitude
                let aboveReadsBack = Double(UInt64(below + 1)) / scale == magnitude
                guard belowReadsBack || aboveReadsBack else { continue }
                if belowReadsBack && aboveReadsBack && remainder == half { return false }
                let nearer = belowReadsBack && (!aboveReadsBack || remainder < half) ? below : below + 1
                appendDecimal(UInt64(nearer), fractionDigits: digits, negative: double < 0, to: output)
                return true
            }
            return false
        }
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
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]).assumingMemoryBound(to: UInt8.self))
        }
    }
}
