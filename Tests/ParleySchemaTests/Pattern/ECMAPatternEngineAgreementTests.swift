@_spi(Testing) import ParleySchema
import Testing

/// The linear engine (Pike VM) against the backtracking one, which follows ECMA-262's matcher
/// step by step: on generated patterns over `a` and `b` and every text of up to five letters,
/// they must agree.
@Suite struct ECMAPatternEngineAgreementTests {
    /// A deterministic generator (SplitMix64), so a failure reproduces.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func randomPattern(depth: Int, using random: inout SplitMix) -> String {
        let atoms = ["a", "b", ".", "[ab]", "[^a]", "\\b", "\\B", "^", "$", "", "\\w", "[a-b]"]
        if depth == 0 { return atoms.randomElement(using: &random)! }
        let inner = randomPattern(depth: depth - 1, using: &random)
        let other = randomPattern(depth: depth - 1, using: &random)
        let quantifiable = "(?:\(inner))"
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return inner + other
        case 1: return "\(inner)|\(other)"
        case 2: return "(\(inner))"
        case 3: return quantifiable + "*"
        case 4: return quantifiable + "+?"
        case 5: return quantifiable + "?"
        case 6: return quantifiable + "{1,2}"
        case 7: return quantifiable + "{2}"
        case 8: return quantifiable + "{0,}?"
        default: return inner + other + other
        }
    }

    static let texts: [String] = {
        var all = [""]
        var layer = [""]
        for _ in 0..<5 {
            layer = layer.flatMap { [$0 + "a", $0 + "b"] }
            all += layer
        }
        return all + ["a b", "ab!", "-a-"]
    }()

    @Test(arguments: 0..<8)
    func generatedPatternsAgree(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed) &* 7919)
        for _ in 0..<40 {
            let source = Self.randomPattern(depth: 3, using: &random)
            let pattern = try ECMAPattern(source, unicode: seed % 2 == 0)
            for text in Self.texts {
                let linear = try pattern.matches(text)
                let backtracked = try pattern.matchesByBacktracking(text)
                #expect(linear == backtracked, "/\(source)/ on \(text.debugDescription)")
            }
        }
    }

    @Test(arguments: ECMAPatternGrammarTests.cases.filter { !$0.pattern.contains("(?") && !$0.pattern.contains("\\1")
                                                             && !$0.pattern.contains("\\k<") })
    func grammarCasesAgree(_ testCase: PatternCase) throws {
        let pattern = try ECMAPattern(testCase.pattern, unicode: testCase.unicode)
        for text in testCase.matching + testCase.failing {
            #expect(try pattern.matches(text) == pattern.matchesByBacktracking(text), "\(testCase) on \(text)")
        }
    }
}

/// Patterns without quantifiers or alternatives run on the sequence matcher: they must agree with
/// the backtracking engine, anchored or not, with word boundaries and surrogate pairs in the text.
@Suite struct ECMAPatternSequenceTests {
    static let patterns = [
        "^[A-Z]{3}-[0-9]{4}$", "[A-Z]{3}-[0-9]{4}", "-\\d", "\\bab\\b", "\\Bb", "a$", "^$", "", "x.y",
        "[^a]b", "\\uD83D", "\\u{1F600}", "(?:ab)c",
    ]
    static let texts = [
        "", "ABC-1234", "ABC-12345", "xABC-1234", "aABC-1234 ", "ab", "b ab", "cab", "xzy", "x\u{1F600}y",
        "\u{1F600}", "abc", "aab", "a", "-7",
    ]

    @Test(arguments: [false, true])
    func sequencesAgreeWithBacktracking(unicode: Bool) throws {
        for source in Self.patterns {
            guard let pattern = try? ECMAPattern(source, unicode: unicode) else { continue }
            for text in Self.texts {
                #expect(try pattern.matches(text) == pattern.matchesByBacktracking(text),
                        "/\(source)/ on \(text.debugDescription)")
            }
        }
    }

    @Test func sequenceVerdicts() throws {
        let sku = try ECMAPattern("^[A-Z]{3}-[0-9]{4}$", unicode: true)
        #expect(try sku.matches("ABC-1000"))
        #expect(try !sku.matches("ABC-100"))
        #expect(try !sku.matches("xABC-1000"))
        let unanchored = try ECMAPattern("c-\\d\\b", unicode: true)
        #expect(try unanchored.matches("abc-1 x"))
        #expect(try !unanchored.matches("abc-12"))
    }

    @Test func sequenceStepsAreBounded() throws {
        let pattern = try ECMAPattern("aaaab", unicode: false, limits: ECMAPattern.Limits(maxSteps: 20))
        #expect(throws: PatternError.self) { try pattern.matches(String(repeating: "a", count: 40)) }
    }
}
