import Parley
import ParleyTestKit
import ParleyYAML
import Testing

/// Short decimals written without a `String` (``FloatText/appendShortDecimal(_:to:)``) must be
/// `description`'s text, byte for byte, and read back as the same `Double`.
@Suite struct FloatTextTests {
    /// The fast path's text for `double`, or `nil` when it leaves the value to `description`.
    func shortDecimal(_ double: Double) -> String? {
        let output = ByteOutput(capacity: 64)
        guard FloatText.appendShortDecimal(double, to: output) else {
            #expect(output.count == 0, "\(double): bytes written on the way out")
            return nil
        }
        return String(decoding: output.makeArray(), as: UTF8.self)
    }

    /// Checks `double` and its negation; returns how many took the fast path.
    @discardableResult
    func expectDescription(_ double: Double) -> Int {
        var taken = 0
        for value in [double, -double] {
            guard let text = shortDecimal(value) else { continue }
            taken += 1
            if text != value.description { Issue.record("\(value): wrote \(text), description \(value.description)") }
        }
        return taken
    }

    @Test func decimalsOfFewDigitsTakeTheFastPathAndMatchDescription() {
        var random = SplitMix64(seed: 33)
        var taken = 0
        for _ in 0..<50_000 {
            let digits = Double(UInt64.random(in: 0..<1_000_000_000, using: &random))
            let scale = [1.0, 10, 100, 1_000, 10_000, 100_000, 1e6, 1e7, 1e8, 1e9].randomElement(using: &random)!
            taken += expectDescription(digits / scale)
        }
        for quarter in 0..<20_000 { taken += expectDescription(Double(quarter) / 4 + 0.5) }
        #expect(taken > 100_000)
    }

    @Test func arbitraryDoublesMatchDescription() {
        var random = SplitMix64(seed: 34)
        var taken = 0
        for _ in 0..<100_000 {
            // Exponents from below the fast path's range to above it, any significand.
            let exponent = UInt64(Int.random(in: (1_023 - 16)...(1_023 + 56), using: &random))
            let bits = exponent << 52 | random.next() & (1 << 52 - 1)
            taken += expectDescription(Double(bitPattern: bits))
        }
        #expect(taken > 1_000)
    }

    @Test func boundariesAndPowersOfTwoMatchDescription() {
        var values: [Double] = [0.001, 0.0001, 0.00099, 0x1p53, 0x1p52 + 0.5, 9_007_199_254_740_991, 1e15, 1e16, 0.1,
                                0.2, 0.3, 1.0 / 3, 2.0 / 3, 0.1 + 0.2, 1e-3 + 1e-18, 123_456_789.123_456_79]
        for exponent in -12...54 { values.append(Double(sign: .plus, exponent: exponent, significand: 1)) }
        for value in values {
            for near in [value, value.nextUp, value.nextDown] { expectDescription(near) }
        }
        #expect(shortDecimal(12.25) == "12.25")
        #expect(shortDecimal(-3) == "-3.0")
        #expect(shortDecimal(0.025) == "0.025")
        #expect(shortDecimal(0.0001) == nil)
        #expect(shortDecimal(0x1p53) == nil)
        for special in [0.0, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude] {
            #expect(shortDecimal(special) == nil)
        }
    }

    /// Floats written by the YAML writer read back (through libyaml) as the same `Double`.
    @Test func writtenFloatsReadBack() throws {
        var random = SplitMix64(seed: 35)
        var floats: [Value] = []
        for _ in 0..<2_000 {
            let digits = Double(UInt64.random(in: 0..<10_000_000, using: &random))
            floats.append(.float(digits / [1.0, 10, 100, 1_000, 1e6][Int.random(in: 0..<5, using: &random)]))
            let exponent = UInt64(Int.random(in: 900...1_100, using: &random))
            floats.append(.float(Double(bitPattern: exponent << 52 | random.next() >> 12)))
        }
        let value: Value = .array(floats)
        let read = try YAMLFormat().decode(try YAMLFormat().encode(value))
        guard case .array(let elements) = read else { Issue.record("not an array: \(read)"); return }
        #expect(elements.count == floats.count)
        for (element, float) in zip(elements, floats) {
            guard case .float(let written) = float else { continue }
            switch element {
            case .float(let double): #expect(double.bitPattern == written.bitPattern)
            case .integer(let integer): Issue.record("\(written) read back as the integer \(integer)")
            default: Issue.record("\(written) read back as \(element)")
            }
        }
    }
}
