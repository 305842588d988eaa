import Parley

extension JSONParser {
    /// Exact powers of ten a `Double` holds (10^0 … 10^22), for the fast decimal path.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Parses a number at `position` by the RFC 8259 grammar.
    ///
    /// - Returns: `Value/integer(_:)` for an integer literal that fits 64 bits (except `-0`);
    ///   `Value/float(_:)` for a literal with a fraction or exponent, at most 15 significant
    ///   digits, whose value is a finite normal `Double` (or zero); `Value/number(_:)` with
    ///   the exact text otherwise.
    mutating func parseNumber() throws(FormatError) -> Value {
        let start = position
        var i = position
        var isNegative = false
        if bytes[i] == 0x2D {
            isNegative = true
            i += 1
        }
        // Integer part.
        guard i < count else { throw error(.truncated, "unexpected end of input in a number", at: i) }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        let integerStart = i
        let first = bytes[i]
        if first == 0x30 {
            i += 1
            if i < count, bytes[i] &- 0x30 < 10 {
                throw error(.malformed, "a number may not have a leading zero", at: i)
            }
        } else if first &- 0x31 < 9 {
            while i < count {
                let digit = bytes[i] &- 0x30
                if digit >= 10 { break }
                if significantDigits < 19 { mantissa = mantissa &* 10 &+ UInt64(digit) }
                significantDigits += 1
                i += 1
            }
        } else {
            throw error(.malformed, "expected a digit in a number", at: i)
        }
        let integerDigits = i - integerStart

        // Plain integer: the common case.
        if i >= count || (bytes[i] != 0x2E && bytes[i] | 0x20 != 0x65) {
            position = i
            if integerDigits <= 18 {
                if isNegative {
                    if mantissa == 0 { return .number("-0") }
                    return .integer(-Int64(mantissa))
                }
                return .integer(Int64(mantissa))
            }
            if integerDigits == 19 {
                if !isNegative && mantissa <= UInt64(Int64.max) { return .integer(Int64(mantissa)) }
                if isNegative && mantissa <= UInt64(Int64.max) + 1 { return .integer(Int64(truncatingIfNeeded: 0 &- mantissa)) }
            }
            return .number(text(from: start, to: i))
        }

        // Fraction.
        var decimalExponent = 0
        if bytes[i] == 0x2E {
            i += 1
            guard i < count else { throw error(.truncated, "unexpected end of input after '.'", at: i) }
            guard bytes[i] &- 0x30 < 10 else { throw error(.malformed, "expected a digit after '.'", at: i) }
            while i < count {
                let digit = bytes[i] &- 0x30
                if digit >= 10 { break }
                if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    decimalExponent -= 1
                }
                if significantDigits > 0 || digit != 0 { significantDigits += 1 }
                i += 1
            }
        }
        // Exponent.
        if i < count && bytes[i] | 0x20 == 0x65 {
            i += 1
            guard i < count else { throw error(.truncated, "unexpected end of input in an exponent", at: i) }
            var exponentIsNegative = false
            if bytes[i] == 0x2D || bytes[i] == 0x2B {
                exponentIsNegative = bytes[i] == 0x2D
                i += 1
            }
            guard i < count else { throw error(.truncated, "unexpected end of input in an exponent", at: i) }
            guard bytes[i] &- 0x30 < 10 else { throw error(.malformed, "expected a digit in the exponent", at: i) }
            var exponent = 0
            while i < count {
                let digit = bytes[i] &- 0x30
                if digit >= 10 { break }
                if exponent < 100_000 { exponent = exponent * 10 + Int(digit) }
                i += 1
            }
            decimalExponent += exponentIsNegative ? -exponent : exponent
        }
        position = i

        if significantDigits > 15 { return .number(text(from: start, to: i)) }
        if mantissa == 0 { return .float(isNegative ? -0.0 : 0.0) }
        var value: Double
        if decimalExponent >= -22 && decimalExponent <= 22 {
            // Clinger's fast path: both operands exact, one correctly rounded operation.
            value = Double(mantissa)
            if decimalExponent < 0 {
                value /= Self.powersOfTen[-decimalExponent]
            } else {
                value *= Self.powersOfTen[decimalExponent]
            }
        } else if let fast = EiselLemire.double(significand: mantissa, exponent: decimalExponent) {
            value = fast
        } else {
            // Halfway cases, subnormals and overflow: the standard library's exact conversion.
            guard let parsed = Double(text(from: start, to: i)) else { return .number(text(from: start, to: i)) }
            value = parsed.magnitude
        }
        guard value.isFinite && value >= Double.leastNormalMagnitude else {
            return .number(text(from: start, to: i))
        }
        return .float(isNegative ? -value : value)
    }

    func text(from start: Int, to end: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
    }
}
