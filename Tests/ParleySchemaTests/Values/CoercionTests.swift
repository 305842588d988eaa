import ParleySchema
import Testing

/// Text read as a number follows JSON's number grammar exactly.
@Suite struct CoercionTests {
    @Test func readsTheJSONNumberGrammar() throws {
        let grammar = try Regex("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")
        let texts = ["0", "-0", "7", "42", "-42", "0.5", "-0.5", "1.25e3", "1E+3", "1e-3", "0e0", "10.01E-10",
                     "", "-", "+1", "01", "-01", "00", "1.", ".5", "1.e3", "1e", "1e+", "1e+-3", "1.2.3", "1ee3",
                     "0x10", " 1", "1 ", "1_000", "١", "NaN", "Infinity", "--1", "1-", "0.0.0", "5e3.2",
                     String(repeating: "9", count: 40)]
        for text in texts {
            #expect(Coercion.isNumberSyntax(text) == (text.wholeMatch(of: grammar) != nil), "\(text)")
        }
    }
}
