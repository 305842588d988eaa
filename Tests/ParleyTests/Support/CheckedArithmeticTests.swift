import Parley
import Testing

@Suite struct CheckedArithmeticTests {
    @Test(arguments: [("0", 0), ("007", 7), ("9223372036854775807", Int.max)] as [(String, Int)])
    func decimalDigitsParse(text: String, value: Int) {
        #expect(CheckedArithmetic.nonNegativeDecimal(text) == value)
    }

    @Test(arguments: ["", "-2", "+5", " 5", "5 ", "9223372036854775808", "99999999999999999999", "1e3", "٣"])
    func anythingButDigitsThatFitIsNoNumber(text: String) {
        #expect(CheckedArithmetic.nonNegativeDecimal(text) == nil)
    }

    @Test func hexadecimalDigitsParseUpToIntMax() {
        #expect(CheckedArithmetic.nonNegativeHexadecimal("7FFFFFFFFFFFFFFF") == Int.max)
        #expect(CheckedArithmetic.nonNegativeHexadecimal("00aF") == 0xAF)
        for text in ["", "8000000000000000", "FFFFFFFFFFFFFFFF", "10000000000000000", "-1", "+1", "0x1", "g"] {
            #expect(CheckedArithmetic.nonNegativeHexadecimal(text) == nil, "\(text)")
        }
    }

    @Test func sumsAndProductsReportOverflow() {
        #expect(CheckedArithmetic.sum(Int.max, 1) == nil)
        #expect(CheckedArithmetic.sum(Int.min, -1) == nil)
        #expect(CheckedArithmetic.sum(2, 3) == 5)
        #expect(CheckedArithmetic.product(Int.max / 2 + 1, 2) == nil)
        #expect(CheckedArithmetic.product(6, 7) == 42)
    }

    @Test func fitsComparesWithWhatIsLeft() {
        #expect(CheckedArithmetic.fits(5, in: 10, from: 5))
        #expect(!CheckedArithmetic.fits(6, in: 10, from: 5))
        #expect(!CheckedArithmetic.fits(Int.max, in: 10, from: 5))
        #expect(!CheckedArithmetic.fits(-2, in: 10, from: 5))
        #expect(!CheckedArithmetic.fits(1, in: 10, from: -1))
        #expect(!CheckedArithmetic.fits(0, in: 10, from: 11))
        #expect(CheckedArithmetic.fits(0, in: 10, from: 10))
    }

    @Test func windowEndsAreClamped() {
        #expect(CheckedArithmetic.end(of: Int.max, from: 5, clampedTo: 10) == 10)
        #expect(CheckedArithmetic.end(of: 3, from: 5, clampedTo: 10) == 8)
        #expect(CheckedArithmetic.end(of: -7, from: 5, clampedTo: 10) == 5)
    }

    @Test func expansionBudgetsSaturate() {
        #expect(CheckedArithmetic.expansionBudget(ratio: 16, inputBytes: 1_000) == 65_536 + 16_000)
        #expect(CheckedArithmetic.expansionBudget(ratio: Int.max, inputBytes: 2) == Int.max)
        #expect(CheckedArithmetic.expansionBudget(ratio: -1, inputBytes: 2) == 65_536)
    }
}
