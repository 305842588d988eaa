import Parley
import ParleyTestKit
import ParleyYAML
import Testing

/// The one-pass plain-scalar test (``ScalarText/isPlainSafe(_:inFlow:)``) against the rule it
/// replaced, written scalar by scalar, on generated strings; and every string written plain reads back.
@Suite struct ScalarTextTests {
    /// Characters that matter to the rule (indicators, digits, spaces, word letters, controls,
    /// non-printable and printable non-ASCII scalars), and ordinary ones.
    static let alphabet: [String] = [
        "a", "e", "l", "s", "u", "y", "Y", "n", "N", "o", "O", "t", "T", "f", "F", "~", "<", "=", "0", "1", "9",
        ".", "-", "+", ":", "#", " ", "\t", ",", "[", "]", "{", "}", "?", "!", "'", "\"", "\\", "_", "@", "%", "`",
        "é", "\u{85}", "\u{A0}", "\u{2028}", "\u{FEFF}", "\u{7F}", "\u{1}", "\u{0}", "\n", "😀", "\u{301}",
    ]

    /// The rule as it read before the one-pass test: the same decisions, made scalar by scalar.
    static func referenceIsPlainSafe(_ string: String, inFlow: Bool) -> Bool {
        let scalars = Array(string.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last else { return false }
        if "-?:,[]{}#&*!|>'\"%@` \t.+0123456789".unicodeScalars.contains(first) { return false }
        if " \t:".unicodeScalars.contains(last) { return false }
        for (previous, scalar) in zip(scalars, scalars.dropFirst()) {
            if previous == ":" && scalar == " " || previous == " " && scalar == "#" { return false }
        }
        let isPrintable = { (scalar: Unicode.Scalar) -> Bool in
            switch scalar.value {
            case 0x20...0x7E, 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...0x10FFFF:
                true
            default: false
            }
        }
        if !scalars.allSatisfy(isPrintable) { return false }
        if inFlow && scalars.contains(where: { ",[]{}:#".unicodeScalars.contains($0) }) { return false }
        let lowered = String(string.unicodeScalars.map { scalar -> Character in
            ("A"..."Z").contains(scalar) ? Character(Unicode.Scalar(scalar.value | 0x20)!) : Character(scalar)
        })
        if ["y", "yes", "n", "no", "on", "off", "true", "false", "null", "~", "<<", "="].contains(lowered) {
            return false
        }
        return true
    }

    func expectSameDecision(_ string: String) {
        for inFlow in [false, true] {
            let decision = ScalarText.isPlainSafe(string, inFlow: inFlow)
            let reference = Self.referenceIsPlainSafe(string, inFlow: inFlow)
            if decision != reference {
                Issue.record("\(string.debugDescription) inFlow \(inFlow): \(decision), the rule says \(reference)")
            }
        }
    }

    @Test func everyStringOfUpToThreeCharactersGetsTheRulesDecision() {
        var count = 0
        expectSameDecision("")
        for a in Self.alphabet {
            expectSameDecision(a)
            for b in Self.alphabet {
                expectSameDecision(a + b)
                for c in Self.alphabet {
                    expectSameDecision(a + b + c)
                    count += 1
                }
            }
        }
        #expect(count == Self.alphabet.count * Self.alphabet.count * Self.alphabet.count)
    }

    @Test func randomLongerStringsGetTheRulesDecision() {
        var random = SplitMix64(seed: 33)
        var plain = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...40, using: &random)
            // Mostly letters, so that many strings are plain and the late tests are reached.
            let string = (0..<length).map { _ in
                Bool.random(using: &random) ? "x" : Self.alphabet.randomElement(using: &random)!
            }.joined()
            expectSameDecision(string)
            if ScalarText.isPlainSafe(string, inFlow: false) { plain += 1 }
        }
        #expect(plain > 100)
    }

    @Test func wordsAndNumbersAreQuoted() {
        for word in ["yes", "No", "ON", "off", "True", "FALSE", "NULL", "~", "<<", "=", "y", "N", "1.0", "0777",
                     "1_000", "2001-12-14", ".inf", "-.inf", "+1", "0x1F", ".nan", "key: value", "a #b", "a:"] {
            #expect(!ScalarText.isPlainSafe(word, inFlow: false), "\(word)")
            expectSameDecision(word)
        }
        for word in ["yess", "nan", "nulls", "truth", "Ada", "a:b", "a#b", "user 1@example.com", "née", "x~"] {
            #expect(ScalarText.isPlainSafe(word, inFlow: false), "\(word)")
            expectSameDecision(word)
        }
    }

    /// A string the test writes plain reads back (through libyaml) as the same string.
    @Test func plainStringsReadBackAsThemselves() throws {
        var checked = 0
        for a in Self.alphabet {
            for b in Self.alphabet {
                let string = a + b
                guard ScalarText.isPlainSafe(string, inFlow: false) else { continue }
                let written = try YAMLFormat().encode(["k": .string(string), "l": [.string(string)]])
                let expected: Value = ["k": .string(string), "l": [.string(string)]]
                #expect(try YAMLFormat().decode(written) == expected, "\(string.debugDescription)")
                checked += 1
            }
        }
        // Words near the core schema's nulls and Booleans, in every ASCII case.
        for word in ["null", "true", "false", "nul", "tru", "fals", "nulll", "truee", "~~", "on", "off", "yes"] {
            for mask in 0..<(1 << word.count) {
                let string = String(word.enumerated().map { mask >> $0 & 1 == 1 ? Character($1.uppercased()) : $1 })
                guard ScalarText.isPlainSafe(string, inFlow: false) else { continue }
                #expect(try YAMLFormat().decode(try YAMLFormat().encode(.string(string))) == .string(string),
                        "\(string)")
                checked += 1
            }
        }
        #expect(checked > 600)
    }
}
