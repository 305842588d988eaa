import ParleyJSON
import ParleyTestKit
import Testing

/// The fast conversion on its own: it decides almost every case itself (so the decoder rarely
/// takes the slow path), is never wrong when it decides, and leaves ties and out-of-range
/// results to the exact path.
@Suite struct EiselLemireTests {
    @Test func decidesAlmostEveryCaseAndAgreesWithStrtod() throws {
        var generator = SplitMix64(seed: 0xE15E_1E41)
        var decided = 0
        let cases = 50_000
        for _ in 0..<cases {
            // Significands of up to 19 digits (all the algorithm takes), normal-range exponents.
            let significand = generator.next() % 10_000_000_000_000_000_000 + 1
            let exponent = Int(generator.next() % 600) - 300
            let reference = try #require(Double("\(significand)e\(exponent)"))
            if let fast = EiselLemire.double(significand: significand, exponent: exponent) {
                decided += 1
                #expect(fast.bitPattern == reference.bitPattern, "\(significand)e\(exponent)")
            }
        }
        // Results below the normal range (about a tenth of these exponents) are left to the exact path.
        #expect(decided > cases * 85 / 100)
    }

    @Test func tiesAndTheEdgesGoToTheExactPath() {
        #expect(EiselLemire.double(significand: 1, exponent: 23) == nil)  // exactly halfway
        #expect(EiselLemire.double(significand: 1, exponent: 309) == nil)  // overflows
        #expect(EiselLemire.double(significand: 1, exponent: -320) == nil)  // subnormal
        #expect(EiselLemire.double(significand: 1, exponent: -400) == nil)  // past the table
        #expect(EiselLemire.double(significand: 0, exponent: 5) == nil)
        #expect(EiselLemire.double(significand: 1, exponent: 308) == 1e308)
        #expect(EiselLemire.double(significand: 1, exponent: -307) == 1e-307)
        #expect(EiselLemire.double(significand: 17_976_931_348_623_157, exponent: 292) == .greatestFiniteMagnitude)
        #expect(EiselLemire.double(significand: 22_250_738_585_072_014, exponent: -324) == .leastNormalMagnitude)
        #expect(EiselLemire.powersOfTen.count == 2 * EiselLemire.exponentRange.count)
    }
}
