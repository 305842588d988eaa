import ParleySchema
import Testing

/// One pattern with texts it must find a match in and texts it must not.
struct PatternCase: Sendable, CustomStringConvertible {
    let pattern: String
    let unicode: Bool
    let matching: [String]
    let failing: [String]

    init(_ pattern: String, unicode: Bool = true, _ matching: [String], not failing: [String] = []) {
        self.pattern = pattern
        self.unicode = unicode
        self.matching = matching
        self.failing = failing
    }

    var description: String { "/\(pattern)/\(unicode ? "u" : "")" }
}

/// The grammar, construct by construct: each pattern against texts that match and texts that do not.
@Suite struct ECMAPatternGrammarTests {
    static let cases: [PatternCase] = [
        // Literals, search anywhere, anchors.
        PatternCase("abc", ["abc", "xxabcxx"], not: ["ab", "acb", ""]),
        PatternCase("", ["", "anything"]),
        PatternCase("^abc$", ["abc"], not: ["abc\n", "xabc", "abcx"]),
        PatternCase("^$", [""], not: ["\n", "a"]),
        PatternCase("a^b", [], not: ["ab", "a^b"]),
        PatternCase("a$|b", ["xa", "b", "bx"], not: ["ax", "x"]),
        // Alternation and groups.
        PatternCase("^(?:cat|dog)s?$", ["cat", "dogs", "cats"], not: ["cow", "catdog"]),
        PatternCase("^(a|ab)(c|bcd)(d*)$", ["abcd", "abcdd", "ac"], not: ["abd"]),
        PatternCase("^(?<year>\\d{4})-(?<month>\\d{2})$", ["2024-01"], not: ["24-01", "2024-1"]),
        PatternCase("^a||b$", ["xyz"]),
        PatternCase("^(|a)b$", ["b", "ab"], not: ["aab"]),
        // Quantifiers.
        PatternCase("^a*$", ["", "a", "aaaa"], not: ["b", "aab"]),
        PatternCase("^a+$", ["a", "aaa"], not: [""]),
        PatternCase("^ab?c$", ["ac", "abc"], not: ["abbc"]),
        PatternCase("^a{3}$", ["aaa"], not: ["aa", "aaaa"]),
        PatternCase("^a{2,}$", ["aa", "aaaaa"], not: ["a"]),
        PatternCase("^a{2,4}$", ["aa", "aaa", "aaaa"], not: ["a", "aaaaa"]),
        PatternCase("^a{0}b$", ["b"], not: ["ab"]),
        PatternCase("^a*?b+?c??$", ["b", "aabbc", "abc"], not: ["ac"]),
        PatternCase("^a{2,3}?$", ["aa", "aaa"], not: ["aaaa"]),
        PatternCase("^(ab){2}$", ["abab"], not: ["ab", "ababab"]),
        PatternCase("^(a*)*$", ["", "aaa"], not: ["ab"]),
        PatternCase("^(a|b?)+$", ["", "ab", "bbaa"], not: ["c"]),
        // Dot: any unit except line terminators.
        PatternCase("^.$", ["a", "é", "\u{2027}", "\u{FEFF}"], not: ["\n", "\r", "\u{2028}", "\u{2029}", ""]),
        PatternCase("^a.c$", ["abc", "a c"], not: ["a\nc"]),
        // Classes.
        PatternCase("^[abc]+$", ["abcba"], not: ["abd"]),
        PatternCase("^[a-z0-9_]+$", ["snake_case9"], not: ["Camel"]),
        PatternCase("^[^a-z]$", ["A", "1", "\n"], not: ["q"]),
        PatternCase("^[-a]+$", ["-a-"], not: ["b"]),
        PatternCase("^[a-]+$", ["a-"], not: ["b"]),
        PatternCase("^[]$", [], not: ["", "a", "]"]),
        PatternCase("^[^]$", ["a", "\n"], not: [""]),
        PatternCase("^[\\d\\s]+$", ["1 2\t3"], not: ["1a"]),
        PatternCase("^[^\\D]$", ["7"], not: ["x"]),
        PatternCase("^[\\b]$", ["\u{8}"], not: ["b"]),
        PatternCase("^[\\-\\]\\\\]+$", ["-]\\"], not: ["a"]),
        PatternCase("^[.]$", ["."], not: ["a"]),
        PatternCase("^[\\u0041-\\u0043]+$", ["ABC"], not: ["D"]),
        // Escapes.
        PatternCase("^\\d+$", ["0123456789"], not: ["١٢", "a"]),
        PatternCase("^\\D$", ["a", "١"], not: ["5"]),
        PatternCase("^\\w+$", ["azAZ09_"], not: ["é", "-"]),
        PatternCase("^\\W$", ["é", "-"], not: ["a", "_"]),
        PatternCase("^\\s+$", [" \t\n\u{B}\u{C}\r\u{A0}\u{1680}\u{2000}\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}"
                                + "\u{3000}\u{FEFF}"],
                    not: ["\u{200B}", "a"]),
        PatternCase("^\\S$", ["\u{200B}", "a"], not: [" ", "\u{FEFF}"]),
        PatternCase("^\\t\\n\\v\\f\\r$", ["\t\n\u{B}\u{C}\r"]),
        PatternCase("^\\0$", ["\u{0}"], not: ["0"]),
        PatternCase("^\\cJ\\cj$", ["\n\n"]),
        PatternCase("^\\x41\\u0042\\u{43}$", ["ABC"]),
        PatternCase("^\\u{1F432}$", ["🐲"], not: ["🐉"]),
        PatternCase("^\\ud83d\\udc32$", ["🐲"]),
        PatternCase("^\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/$", ["^$\\.*+?()[]{}|/"]),
        // Word boundaries, ASCII word characters only.
        PatternCase("\\bcat\\b", ["cat", "a cat.", "(cat)"], not: ["cats", "concat"]),
        PatternCase("\\Bcat\\B", ["concats"], not: ["cat", "cats"]),
        PatternCase("^\\b$", [], not: [""]),
        PatternCase("^\\B$", [""]),
        PatternCase("é\\b", ["éa"], not: ["é"]),
        // Code points with u, code units without.
        PatternCase("^.$", unicode: true, ["🐲"]),
        PatternCase("^.$", unicode: false, [], not: ["🐲"]),
        PatternCase("^..$", unicode: false, ["🐲"]),
        PatternCase("^🐲*$", unicode: true, ["", "🐲🐲"]),
        PatternCase("^🐲*$", unicode: false, ["🐲", "\u{1F432}"], not: ["🐲🐲"]),
        PatternCase("^[🐲]$", unicode: true, ["🐲"]),
        PatternCase("^[^a]$", unicode: false, [], not: ["🐲"]),
        PatternCase("^\\S$", unicode: true, ["🐲"]),
        // Unicode properties.
        PatternCase("^\\p{L}+$", ["héllo", "Ωμέγα", "中文"], not: ["a1", "a b"]),
        PatternCase("^\\p{Letter}cole$", ["école"], not: ["1cole"]),
        PatternCase("^\\p{Lu}\\p{Ll}+$", ["Élan"], not: ["élan"]),
        PatternCase("^\\p{gc=Nd}+$", ["42", "٤٢", "߀"], not: ["x"]),
        PatternCase("^\\p{General_Category=Decimal_Number}$", ["٤"], not: ["x"]),
        PatternCase("^\\p{digit}+$", ["42٤"], not: ["x"]),
        PatternCase("^\\P{L}+$", ["123 !"], not: ["a"]),
        PatternCase("^[\\p{L}\\d]+$", ["abc123é"], not: ["a-b"]),
        PatternCase("^[^\\p{L}]+$", ["123"], not: ["1a"]),
        PatternCase("^[\\P{L}]+$", ["123"], not: ["1a"]),
        PatternCase("^\\p{Sc}$", ["€", "$"], not: ["e"]),
        PatternCase("^\\p{Zs}$", [" ", "\u{3000}"], not: ["\t"]),
        PatternCase("^\\p{ASCII}+$", ["plain"], not: ["é"]),
        PatternCase("^\\p{Any}$", ["🐲", "\n"]),
        PatternCase("^\\p{White_Space}$", ["\u{85}"], not: ["\u{FEFF}"]),
        PatternCase("^\\p{Emoji_Presentation}$", ["🐲"], not: ["a"]),
        PatternCase("^\\p{Alphabetic}+$", ["abcΩ"], not: ["1"]),
        // Lookarounds and backreferences (the bounded backtracking path).
        PatternCase("^(?=.*\\d)(?=.*[A-Z]).{8,}$", ["Password1", "1AAAAAAA"], not: ["password1", "Pass1"]),
        PatternCase("^(?!admin$)\\w+$", ["administrator", "root"], not: ["admin"]),
        PatternCase("(?<=\\$)\\d+", ["cost $42"], not: ["cost 42"]),
        PatternCase("(?<!\\$)\\b\\d+", ["cost 42"], not: ["$42"]),
        PatternCase("^(a+)b\\1$", ["aba", "aabaa"], not: ["aab", "abaa"]),
        PatternCase("^(?<q>['\"]).*\\k<q>$", ["'x'", "\"y\""], not: ["'z\""]),
        PatternCase("^(?:(a)|b)\\1c$", ["aac", "bc"], not: ["abc"]),
        // Each iteration of a quantified group starts with its inner captures cleared.
        PatternCase("^(?:(a)|b)*\\1$", ["ab", "aa", "b", "aaa"], not: ["aba"]),
        PatternCase("^(?:(a)|(b))+\\1\\2$", ["aa", "abb", "bb"], not: ["ab", "abab", "ba"]),
        PatternCase("^(a*)*b$", ["aab", "b"], not: ["aa"]),
        PatternCase("^(?:a|(?=b))*b$", ["aab"]),
        PatternCase("^(?:(?=(a))a)*\\1$", ["aaa"]),
        // Annex B without u: lenient literals and escapes.
        PatternCase("^a{,2}$", unicode: false, ["a{,2}"], not: ["aa"]),
        PatternCase("^{}]$", unicode: false, ["{}]"]),
        PatternCase("^x{1$", unicode: false, ["x{1"]),
        PatternCase("^\\c$", unicode: false, ["\\c"]),
        PatternCase("^\\q\\p{L}$", unicode: false, ["qp{L}"], not: ["qé"]),
        PatternCase("^\\101\\8$", unicode: false, ["A8"]),
        PatternCase("^[\\d-z]+$", unicode: false, ["1-z"], not: ["y"]),
        PatternCase("^\\k$", unicode: false, ["k"]),
        PatternCase("^(a)\\2$", unicode: false, ["a\u{2}"]),
        PatternCase("^[\\c1]$", unicode: false, ["\u{11}"]),
        PatternCase("^(?=a)*a$", unicode: false, ["a"]),
        PatternCase("^\\u{3}$", unicode: false, ["uuu"]),
    ]

    @Test(arguments: cases)
    func matchesAndNonMatches(_ testCase: PatternCase) throws {
        let pattern = try ECMAPattern(testCase.pattern, unicode: testCase.unicode)
        for text in testCase.matching {
            #expect(try pattern.matches(text), "\(testCase) should match \(text.debugDescription)")
        }
        for text in testCase.failing {
            #expect(try !pattern.matches(text), "\(testCase) should not match \(text.debugDescription)")
        }
    }
}
