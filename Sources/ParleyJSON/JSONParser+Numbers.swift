import Parley

extension JSONParser {
    /// Exact powers of ten a `Double` holds (10^0 … 10^22), for the fast decimal path.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Parses a number at `position` by the RFC 8259 grammar, into the tape entry it becomes.
    ///
    /// - Returns: An ``JSONTape/Kind/integer`` entry for an integer literal that fits 64 bits
    ///   (except `-0`); a ``JSONTape/Kind/float`` entry for a literal with a fraction or exponent,
    ///   at most 15 significant digits, whose value is a finite normal `Double` (or zero); a
    ///   ``JSONTape/Kind/numberText`` entry (without its payload) when the literal must be kept
    ///   as its text, which runs from where the number started to `position`.
    ///
    /// Digits are read without checking for the end of the text: the ``padding`` zeros after it
    /// end every run of digits.
    mutating func parseNumber() throws(FormatError) -> JSONTape.Entry {
        let start = position
        var i = position
        let isNegative = bytes[i] == 0x2D
        if isNegative { i &+= 1 }
        // Integer part. Up to 19 digits accumulate exactly; beyond that `mantissa` wraps, and is
        // not used (such a literal is kept as text).
        let integerStart = i
        var mantissa: UInt64 = 0
        let first = bytes[i] &- 0x30
        if first == 0 {
            i &+= 1
            if bytes[i] &- 0x30 < 10 {
                throw error(.malformed, "a number may not have a leading zero", at: i)
            }
        } else if first < 10 {
            mantissa = UInt64(first)
            i &+= 1
            while true {
                let digit = bytes[i] &- 0x30
                if digit >= 10 { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                i &+= 1
            }
        } else if i >= count {
            throw error(.truncated, "unexpected end of input in a number", at: i)
        } else {
            throw error(.malformed, "expected a digit in a number", at: i)
        }
        let integerDigits = i &- integerStart

        // Plain integer: the common case.
        let next = bytes[i]
        if next != 0x2E && next | 0x20 != 0x65 {
            position = i
            if integerDigits <= 18 {
                if isNegative {
                    if mantissa == 0 { return Self.numberText }
                    return JSONTape.Entry(kind: .integer, length: 0, payload: UInt64(bitPattern: -Int64(mantissa)))
                }
                return JSONTape.Entry(kind: .integer, length: 0, payload: mantissa)
            }
            if integerDigits == 19 {
                if !isNegative && mantissa <= UInt64(Int64.max) {
                    return JSONTape.Entry(kind: .integer, length: 0, payload: mantissa)
                }
                if isNegative && mantissa <= UInt64(Int64.max) + 1 {
                    return JSONTape.Entry(kind: .integer, length: 0, payload: 0 &- mantissa)
                }
            }
            return Self.numberText
        }

        // Significant digits run from the first non-zero digit; an integer part of `0` has none.
        // (Not `mantissa == 0`: a long integer part may wrap to 0.)
        let integerIsZero = first == 0
        var significantDigits = integerIsZero ? 0 : integerDigits
        var decimalExponent = 0
        // Fraction.
        if next == 0x2E {
            i &+= 1
            let fractionStart = i
            guard bytes[i] &- 0x30 < 10 else {
                if i >= count { throw error(.truncated, "unexpected end of input after '.'", at: i) }
                throw error(.malformed, "expected a digit after '.'", at: i)
            }
            // Zeros before the first significant digit only move the decimal point.
            if integerIsZero {
                while bytes[i] == 0x30 { i &+= 1 }
            }
            let significantStart = i
            while true {
                let digit = bytes[i] &- 0x30
                if digit >= 10 { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                i &+= 1
            }
            significantDigits &+= i &- significantStart
            decimalExponent = fractionStart &- i
        }
        // Exponent.
        if bytes[i] | 0x20 == 0x65 {
            i &+= 1
            var exponentIsNegative = false
            if bytes[i] == 0x2D || bytes[i] == 0x2B {
                exponentIsNegative = bytes[i] == 0x2D
                i &+= 1
            }
            guard bytes[i] &- 0x30 < 10 else {
                if i >= count { throw error(.truncated, "unexpected end of input in an exponent", at: i) }
                throw error(.malformed, "expected a digit in the exponent", at: i)
            }
            var exponent = 0
            while true {
                let digit = bytes[i] &- 0x30
                if digit >= 10 { break }
                if exponent < 100_000 { exponent = exponent &* 10 &+ Int(digit) }
                i &+= 1
            }
            decimalExponent &+= exponentIsNegative ? -exponent : exponent
        }
        position = i

        // More than 15 significant digits (so also any literal whose `mantissa` wrapped): text.
        if significantDigits > 15 { return Self.numberText }
        if mantissa == 0 {
            return JSONTape.Entry(kind: .float, length: 0, payload: (isNegative ? -0.0 : 0.0).bitPattern)
        }
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
            guard let parsed = Double(text(from: start, to: i)) else { return Self.numberText }
            value = parsed.magnitude
        }
        guard value.isFinite && value >= Double.leastNormalMagnitude else { return Self.numberText }
        return JSONTape.Entry(kind: .float, length: 0, payload: (isNegative ? -value : value).bitPattern)
    }

    /// What ``parseNumber()`` returns for a literal kept as its text (the caller adds the text).
    static var numberText: JSONTape.Entry { JSONTape.Entry(kind: .numberText, length: 0, payload: 0) }

    func text(from start: Int, to end: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
    }
}
