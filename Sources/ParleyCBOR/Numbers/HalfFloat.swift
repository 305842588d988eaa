/// IEEE 754 half precision (binary16), as CBOR writes it in `0xF9` items, converted by hand so
/// the result is the same on every platform.
enum HalfFloat {
    /// The exact `Double` value of the half-precision `bits`, NaN payloads kept in the top bits.
    static func double(fromBits bits: UInt16) -> Double {
        let sign: FloatingPointSign = bits & 0x8000 == 0 ? .plus : .minus
        let exponent = Int(bits >> 10 & 0x1F)
        let mantissa = UInt64(bits & 0x3FF)
        switch exponent {
        case 0:
            return Double(sign: sign, exponent: -24, significand: Double(mantissa))
        case 31:
            let signBit: UInt64 = sign == .minus ? 1 << 63 : 0
            return Double(bitPattern: signBit | 0x7FF << 52 | mantissa << 42)
        default:
            return Double(sign: sign, exponent: exponent - 25, significand: Double(1024 + mantissa))
        }
    }

    /// The half-precision bits that hold `value` exactly, or `nil` when half precision would
    /// round it (NaNs qualify when their payload fits the ten mantissa bits).
    static func bits(exactly value: Double) -> UInt16? {
        let bits = value.bitPattern
        let sign = UInt16(truncatingIfNeeded: bits >> 48) & 0x8000
        let exponent = Int(bits >> 52 & 0x7FF)
        let mantissa = bits & 0xF_FFFF_FFFF_FFFF
        if exponent == 0x7FF {
            guard mantissa & (1 << 42 - 1) == 0 else { return nil }
            return sign | 0x7C00 | UInt16(mantissa >> 42)
        }
        if exponent == 0 { return mantissa == 0 ? sign : nil }
        let unbiased = exponent - 1023
        let candidate: UInt16
        if unbiased > 15 {
            return nil
        } else if unbiased >= -14 {
            candidate = sign | UInt16(unbiased + 15) << 10 | UInt16(mantissa >> 42)
        } else if unbiased >= -24 {
            let significand = (1 << 52 | mantissa) >> UInt64(42 + (-14 - unbiased))
            candidate = sign | UInt16(significand)
        } else {
            return nil
        }
        return double(fromBits: candidate).bitPattern == bits ? candidate : nil
    }
}
