import ParleySchema
import Testing

/// Shapes that make backtracking engines take exponential time give the right answer here; the
/// linear engine finishes them in one pass (timing lives in Benchmarks' linearity gate).
@Suite struct ECMAPatternHostileTests {
    static let manyAs = String(repeating: "a", count: 100_000)

    /// Each against 100,000 `a`s and a final `!`: none can match.
    @Test(arguments: ["(a+)+$", "^(a+)+$", "(a|a)*b", "(a*)*b", "^(a|aa)+$", "((a+)+)+c", "^(a|a?)+$", "(x+x+)+y"])
    func nestedQuantifiersAgainstManyAs(_ pattern: String) throws {
        let compiled = try ECMAPattern(pattern, unicode: true)
        #expect(try !compiled.matches(Self.manyAs + "!"), "\(pattern)")
    }

    /// Larger programs (a state per counted copy) against 10,000 `a`s and a final `!`.
    @Test(arguments: ["(a?){50}a{50}b", "^(\\w+\\s?)*$", "(.*a){20}b", "^(?:a|a?){30}$"])
    func countedRepetitionsAgainstManyAs(_ pattern: String) throws {
        let compiled = try ECMAPattern(pattern, unicode: false)
        #expect(try !compiled.matches(String(repeating: "a", count: 10_000) + "!"), "\(pattern)")
    }

    @Test func hostileShapesStillMatchWhatTheyShould() throws {
        #expect(try ECMAPattern("^(a+)+$", unicode: true).matches(Self.manyAs))
        #expect(try ECMAPattern("(a|a)*b", unicode: true).matches(Self.manyAs + "b"))
        #expect(try ECMAPattern("(a*)*b", unicode: false).matches(Self.manyAs + "b"))
        #expect(try ECMAPattern("(a?){50}a{50}", unicode: true).matches(String(repeating: "a", count: 50)))
        #expect(try !ECMAPattern("(a?){50}a{50}", unicode: true).matches(String(repeating: "a", count: 49)))
    }

    @Test func theLinearBudgetIsATypedError() throws {
        let limits = ECMAPattern.Limits(maxSteps: 10_000)
        let pattern = try ECMAPattern("(a|a)*b", unicode: true, limits: limits)
        let error = #expect(throws: PatternError.self) { try pattern.matches(Self.manyAs) }
        #expect(error?.code == .budgetExceeded)
        #expect(error?.offset == nil)
        #expect(try pattern.matches("aab"))
    }

    /// Lookarounds and backreferences backtrack; their step budget turns a hostile text into an error.
    @Test func theBacktrackingBudgetIsATypedError() throws {
        for source in ["^(?=(a+)+$)", "^(a+)+\\1$", "(?<=(a|a)*)b"] {
            let pattern = try ECMAPattern(source, unicode: true)
            let error = #expect(throws: PatternError.self, "\(source)") {
                try pattern.matches(String(repeating: "a", count: 40) + "!")
            }
            #expect(error?.code == .budgetExceeded)
        }
        #expect(try ECMAPattern("^(?=(a+)+$)", unicode: true).matches("aaaa"))
    }

    /// Clearing many captures on every iteration counts against the budget, so the backtracking
    /// stack stays bounded by it.
    @Test func clearingCapturesIsBudgeted() throws {
        let groups = String(repeating: "(a?)", count: 500)
        let pattern = try ECMAPattern("(?:\(groups)b)*\\1c", unicode: true)
        let error = #expect(throws: PatternError.self) { try pattern.matches(String(repeating: "b", count: 2_000)) }
        #expect(error?.code == .budgetExceeded)
    }

    @Test func longTextsOnTheBacktrackingPathNeedNoDeepStack() throws {
        let limits = ECMAPattern.Limits(maxBacktrackingSteps: 10_000_000)
        let pattern = try ECMAPattern("^(?=a)a*(a)\\1$", unicode: true, limits: limits)
        #expect(try pattern.matches(Self.manyAs))
        #expect(try !pattern.matches(Self.manyAs + "b"))
    }

    /// A sequence pattern (no splits) on ASCII text and on the same text with a non-ASCII unit:
    /// the same answers from every start, the same boundaries, the same step budget.
    @Test func sequencePatternsAgreeOnASCIIAndOtherText() throws {
        let sku = try ECMAPattern("^[A-Z]{3}-[0-9]{4}$", unicode: true)
        #expect(try sku.matches("ABC-1234") && !sku.matches("ABC-123") && !sku.matches("xABC-1234"))
        #expect(try !sku.matches("ÄBC-1234") && !sku.matches("ABC-1234é") && !sku.matches(""))
        let word = try ECMAPattern("\\bc[a-z]t\\b", unicode: false)
        #expect(try word.matches("a cat sat") && word.matches("é cat") && !word.matches("scatter"))
        #expect(try !word.matches("écats") && word.matches("cot"))
        let tight = try ECMAPattern("b[a-z]c", unicode: true, limits: .init(maxSteps: 20))
        #expect(try tight.matches("abxc") && tight.matches("ébxc"))
        for text in [String(repeating: "a", count: 40), String(repeating: "a", count: 40) + "é"] {
            #expect(throws: PatternError.self) { try tight.matches(text) }
        }
    }
}
