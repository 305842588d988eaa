@_spi(Testing) import ParleySchema
import Testing

/// Patterns that are units between `^` and `$` (matched by comparing the text unit by unit) give
/// the backtracking engine's verdicts.
@Suite struct ECMAPatternWholeSequenceTests {
    @Test func agreesWithTheBacktrackingEngine() throws {
        let patterns = ["^$", "^a$", "^abc$", "^[A-Z]{3}-[0-9]{4}$", "^[^a]b\\d$", "^.$", "^\\w\\W$", "^a$b", "a^b$"]
        let texts = ["", "a", "b", "ab", "abc", "abcd", "ABC-1234", "ABC-123", "ABC-12345", "abc-1234", "xb1", "ab1",
                     "\n", "a\n", "é", "_!", "__", "ÀBC-1234", "abc\n"]
        for source in patterns {
            for unicode in [false, true] {
                let pattern = try ECMAPattern(source, unicode: unicode)
                for text in texts {
                    #expect(try pattern.matches(text) == pattern.matchesByBacktracking(text), "\(source) \(text)")
                }
            }
        }
    }
}
