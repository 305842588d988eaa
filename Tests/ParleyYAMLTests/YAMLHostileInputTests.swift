import Parley
import ParleyYAML
import Testing

/// Generated hostile scalars: numbers whose conversion used to take time quadratic in their length.
@Suite struct YAMLHostileInputTests {
    let yaml = YAMLFormat()

    func decode(_ text: String, limits: DecodingLimits = .standard) throws -> Value {
        try yaml.decode(Array(text.utf8), limits: limits)
    }

    /// The old conversion, digit by digit: the reference for the faster one.
    func schoolbookDecimal(_ digits: String, radix: Int) -> String {
        var decimal: [Int] = [0]
        for character in digits {
            var carry = character.hexDigitValue!
            for i in decimal.indices {
                let value = decimal[i] * radix + carry
                decimal[i] = value % 10
                carry = value / 10
            }
            while carry > 0 {
                decimal.append(carry % 10)
                carry /= 10
            }
        }
        while decimal.count > 1 && decimal.last == 0 { decimal.removeLast() }
        return decimal.reversed().map(String.init).joined()
    }

    @Test func aHugeHexadecimalIntegerIsRefusedNotConvertedInQuadraticTime() throws {
        // A megabyte of hex digits: about 10^12 digit steps for the old conversion.
        for text in ["0x" + String(repeating: "f", count: 1_000_000), "0o" + String(repeating: "7", count: 1_000_000),
                     "!!int 0x" + String(repeating: "f", count: 1_000_000)] {
            let error = try #require(throws: FormatError.self) { try decode(text) }
            #expect(error.code == .limitExceeded)
            #expect(error.limit?.maximum == 512)
            #expect(error.limit?.actual == 1_000_000)
        }
        // Quoted or tagged as a string it is only text.
        #expect(try decode("'0x" + String(repeating: "f", count: 100_000) + "'").stringValue?.utf8.count == 100_002)
    }

    @Test(arguments: [23, 100, 511, 512])
    func bigHexadecimalAndOctalIntegersConvertExactly(digitCount: Int) throws {
        let hex = String((0..<digitCount).map { Array("123456789abcdef0")[$0 % 16] })
        #expect(try decode("0x" + hex) == .number(schoolbookDecimal(hex, radix: 16)))
        let octal = String((0..<digitCount).map { Array("12345670")[$0 % 8] })
        #expect(try decode("0o" + octal) == .number(schoolbookDecimal(octal, radix: 8)))
    }

    @Test func leadingZerosDoNotCountTowardTheDigitLimit() throws {
        #expect(try decode("0x" + String(repeating: "0", count: 100_000) + "1F") == .integer(31))
        let big = String(repeating: "f", count: 512)
        #expect(
            try decode("0x" + String(repeating: "0", count: 10_000) + big) == .number(schoolbookDecimal(big, radix: 16))
        )
        #expect(throws: FormatError.self) { try decode("0x" + String(repeating: "0", count: 10) + "1" + big) }
    }

    @Test func longRunsOfLeadingZerosAreStrippedInLinearTime() throws {
        // Stripping one zero at a time from a Substring counted it again each time: 10^12 steps.
        let zeros = String(repeating: "0", count: 1_000_000)
        #expect(try decode(zeros + "99999999999999999999") == .number("99999999999999999999"))
        #expect(try decode("-" + zeros + "99999999999999999999") == .number("-99999999999999999999"))
        #expect(try decode(zeros + ".5") == .float(0.5))
        #expect(try decode(zeros) == .integer(0))
    }
}

extension YAMLHostileInputTests {
    @Test func everyAnchorCountsAsANode() throws {
        // 600 anchored scalars: 601 nodes and 600 anchor-table entries.
        let text = "[" + (0..<600).map { "&a\($0) 0" }.joined(separator: ", ") + "]"
        let error = try #require(throws: FormatError.self) { try decode(text, limits: DecodingLimits(maxNodes: 1_000)) }
        #expect(error.limit?.name == "maxNodes")
        #expect(try decode(text, limits: DecodingLimits(maxNodes: 1_201)).arrayValue?.count == 600)
        // Collections too.
        let mappings = "[" + (0..<600).map { "&m\($0) {}" }.joined(separator: ", ") + "]"
        #expect(throws: FormatError.self) { try decode(mappings, limits: DecodingLimits(maxNodes: 1_000)) }
    }
}
