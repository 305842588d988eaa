import Parley
import ParleyJSON
import ParleyTestKit
import Testing

/// Decimal literals of up to 15 significant digits become correctly rounded `Double`s (Clinger's
/// fast path for exponents within ±22, the Eisel–Lemire algorithm beyond, the standard library's
/// exact conversion when those cannot decide); subnormal and overflowing values, and literals
/// of more digits, stay exact text. glibc's `strtod` (behind `Double(String)`) is the reference.
@Suite struct JSONFloatParsingTests {
    let json = JSONFormat()

    /// What `text` must decode to: the correctly rounded double when it is a finite normal
    /// number (or a zero literal: `significantDigits` 0) of at most 15 significant digits,
    /// else the text itself.
    func expected(_ text: String, significantDigits: Int) -> Value {
        guard significantDigits <= 15, let double = Double(text) else { return .number(text) }
        // A zero literal is a (signed) zero; a nonzero one that underflows to zero is text.
        if significantDigits == 0 || (double.isFinite && double.magnitude >= Double.leastNormalMagnitude) {
            return .float(double)
        }
        return .number(text)
    }

    func decoded(_ text: String) throws -> Value {
        try #require(try json.decode(Array("[\(text)]".utf8)).arrayValue?.first)
    }

    /// Checks `text` against the reference, sign of zero included.
    func check(_ text: String, significantDigits: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let value = try decoded(text)
        let wanted = expected(text, significantDigits: significantDigits)
        #expect(value == wanted, "\(text)", sourceLocation: sourceLocation)
        if case .float(let got) = value, case .float(let want) = wanted {
            #expect(
                got.bitPattern == want.bitPattern, "\(text): \(got) against \(want)", sourceLocation: sourceLocation)
        }
    }

    @Test func everyExponentInRangeRoundsLikeStrtod() throws {
        // Exponents past ±22 leave Clinger's path; the sweep covers every row of the table that
        // 15-digit significands can reach, both signs, and the edges of the normal range.
        let significands: [UInt64] = [1, 2, 3, 5, 7, 9, 17, 123, 4_294_967_297, 9_007_199_254_740, 123_456_789_012_345,
                                      999_999_999_999_999, 100_000_000_000_000, 450_359_962_737_049]
        for exponent in -345...325 {
            for significand in significands {
                let digits = String(significand).count
                try check("\(significand)e\(exponent)", significantDigits: digits)
                try check("-\(significand)E\(exponent < 0 ? "" : "+")\(exponent)", significantDigits: digits)
            }
        }
    }

    @Test func randomLiteralsRoundLikeStrtod() throws {
        var generator = SplitMix64(seed: 0x5EED_F10A7)
        for _ in 0..<20_000 {
            let digits = Int(generator.next() % 15) + 1
            var significand = generator.next() % 1_000_000_000_000_000
            while String(significand).count > digits { significand /= 10 }
            let pointAt = Int(generator.next() % UInt64(digits + 1))
            var text = String(significand)
            if pointAt > 0 && pointAt < text.count {
                text.insert(".", at: text.index(text.startIndex, offsetBy: pointAt))
            }
            let exponent = Int(generator.next() % 680) - 350
            let literal = (generator.next() & 1 == 0 ? "" : "-") + text + "e\(exponent)"
            let significant = String(significand).count
            try check(literal, significantDigits: significand == 0 ? 0 : significant)
        }
    }

    @Test func halfwayCasesRoundToEven() throws {
        // 10^23 = 5^23 × 2^23 and 5^23 is odd with 54 bits: exactly halfway between two doubles.
        // Such products are where the fast algorithm must hand over to the exact conversion.
        for text in ["1e23", "3e23", "7e23", "9e23", "1e24", "5e23", "1e25", "8.5e24", "4.5e23", "2.5e23",
                     "9007199254740993e0", "9.007199254740993e15", "1.00000000000001e23"] {
            let digits = text.prefix { $0 != "e" }.filter(\.isNumber).drop(while: { $0 == "0" }).count
            try check(text, significantDigits: digits)
        }
        // 1e23 rounds down to the even neighbour, 99999999999999991611392.
        guard case .float(let tie) = try decoded("1e23") else { Issue.record("1e23 is not a float"); return }
        #expect(tie == 99_999_999_999_999_991_611_392.0)
        #expect(tie.significandBitPattern & 1 == 0)
    }

    @Test func theEdgesOfTheNormalRange() throws {
        #expect(try decoded("1.7976931348623e308") == .float(1.7976931348623e308))
        #expect(try decoded("1.7976931348624e308") == .number("1.7976931348624e308"))  // overflows
        #expect(try decoded("1e308") == .float(1e308))
        #expect(try decoded("1e309") == .number("1e309"))
        #expect(try decoded("2.2250738585073e-308") == .float(2.2250738585073e-308))
        #expect(try decoded("2.2250738585072e-308") == .number("2.2250738585072e-308"))  // subnormal
        #expect(try decoded("1e-307") == .float(1e-307))
        #expect(try decoded("1e-308") == .number("1e-308"))
        #expect(try decoded("4.9e-324") == .number("4.9e-324"))
        #expect(try decoded("1e-400") == .number("1e-400"))
        #expect(try decoded("1e400") == .number("1e400"))
    }

    @Test func zerosKeepTheirSign() throws {
        #expect(try decoded("-0") == .number("-0"))
        for text in ["-0.0", "-0e400", "-0.000e-400", "-0E+5"] {
            guard case .float(let zero) = try decoded(text) else { Issue.record("\(text) is not a float"); continue }
            #expect(zero == 0 && zero.sign == .minus, "\(text)")
        }
        guard case .float(let zero) = try decoded("0e-400") else { Issue.record("0e-400 is not a float"); return }
        #expect(zero == 0 && zero.sign == .plus)
    }

    @Test func moreThanFifteenDigitsStayExactText() throws {
        // 16 to 19 significant digits (they fit the 64-bit significand) and longer: exact text.
        for text in ["1234567890123456e-40", "12345678901234567e300", "1234567890123456789e-300",
                     "0.30000000000000004", "1.7976931348623157e308", "2.2250738585072014e-308",
                     "0.000000000000000000001234567890123456789", "1." + String(repeating: "0", count: 30) + "1e-200"] {
            #expect(try decoded(text) == .number(text))
        }
        // Leading zeros are not significant: 15 digits after them still make a float.
        #expect(
            try decoded("0.000000000000000000000123456789012345e-30")
                == .float(0.000000000000000000000123456789012345e-30))
    }

    @Test func integerPartsBeyond64BitsStayExactText() throws {
        // 2^64 and 2^65 wrap a 64-bit accumulator to exactly 0; whatever follows, the literal has
        // more than 15 significant digits and stays text (never a zero or a small float).
        for text in [
            "18446744073709551616", "18446744073709551616.5", "36893488147419103232e-10", "-18446744073709551616.0",
            "18446744073709551617", "99999999999999999999", "100000000000000000000e-5"
        ] {
            #expect(try decoded(text) == .number(text))
        }
        #expect(try decoded("1844674407370955.5") == .number("1844674407370955.5"))
        #expect(try decoded("18446744073709.5") == .float(18446744073709.5))
        #expect(try decoded("9223372036854775807") == .integer(.max))
        #expect(try decoded("-9223372036854775808") == .integer(.min))
        #expect(try decoded("-9223372036854775809") == .number("-9223372036854775809"))
        #expect(try decoded("1000000000000000000") == .integer(1_000_000_000_000_000_000))
    }

    @Test(arguments: [
        ("-", FormatError.Code.truncated, 1), ("1.", .truncated, 2), ("1e", .truncated, 2), ("1e+", .truncated, 3),
        ("1E-", .truncated, 3), ("-a", .malformed, 1), ("1.x", .malformed, 2), ("1ex", .malformed, 2),
        ("1e+x", .malformed, 3),
        ("-01", .malformed, 2), ("00", .malformed, 1), ("[1e]", .malformed, 3), ("[-]", .malformed, 2),
        ("[0.]", .malformed, 3)
    ])
    func malformedNumbersFailAtTheRightByte(_ text: String, code: FormatError.Code, offset: Int) throws {
        let error = try #require(throws: FormatError.self) {
            try JSONFormat(options: .init(allowsFragments: true)).decode(Array(text.utf8))
        }
        #expect(error.code == code, "\(text)")
        #expect(error.location?.byteOffset == offset, "\(text)")
    }
}
