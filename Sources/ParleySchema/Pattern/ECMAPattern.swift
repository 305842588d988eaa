/// An ECMA-262 regular expression, as JSON Schema's `pattern` and `patternProperties` use it,
/// compiled once and matched in time linear in the text.
///
/// Syntax: the whole ECMA-262 pattern grammar — alternation; capturing, non-capturing and named
/// groups; `* + ? {n} {n,} {n,m}`, greedy and lazy; `^ $` (without the multiline flag); `\b \B`;
/// `.`; classes with ranges and negation; `\d \D \w \W \s \S` (ASCII digits and word characters,
/// ECMA's white space including U+FEFF and the Zs separators); `\t \n \v \f \r \0 \cX \xHH \uHHHH`,
/// `\u{…}` and surrogate pairs. With `unicode` (the `u` flag): `\p{…}`/`\P{…}` for every
/// General_Category value under its short and long names and aliases, and ECMA's binary properties
/// except Emoji_Component and Extended_Pictographic; the strict grammar (identity escapes only for
/// syntax characters, no lone brackets). Without it, Annex B's lenient grammar (literal `]`, `{`, `}`,
/// legacy octal escapes, `\c` without a letter). The text is matched as UTF-16 code units without
/// `u` and as code points with it.
///
/// Not supported (`.unsupported`): `\p{Script=…}`, `\p{sc=…}` and Script_Extensions, which Swift's
/// `Unicode.Scalar.Properties` cannot answer; Emoji_Component and Extended_Pictographic; the
/// `(?ims-ims:…)` modifiers. Flags other than `u` do not apply to JSON Schema.
///
/// Matching: patterns without lookarounds or backreferences compile to a Thompson NFA that a Pike VM
/// runs in O(program size × text length), so `(a+)+$` or `(a|a)*b` cannot backtrack
/// catastrophically. Lookaheads, lookbehinds and backreferences are not regular; patterns using them
/// run on a backtracking matcher bounded by ``Limits/maxBacktrackingSteps``, and a text that needs
/// more work fails with `.budgetExceeded` instead of hanging. That matcher follows ECMA's order and
/// its capture rules (a quantified group's captures are cleared each iteration), except that a
/// lookbehind is matched forwards from each earlier position: a backreference to a group captured
/// inside a lookbehind may see a different capture than ECMA's right-to-left match would give.
/// An unanchored lookaround pattern is tried from every position, so prefer `^(?=…)` on long texts.
///
/// Errors carry an offset into the pattern in UTF-16 code units without `u`, in Unicode scalars
/// with it. Duplicate group names are a syntax error, even in different alternatives (ES2025 allows
/// that).
///
/// Limits (``Limits``): the compiled program holds at most 100,000 instructions (counted
/// repetitions are expanded, so `a{1000}{1000}` fails to compile with `.budgetExceeded`), groups
/// nest at most 500 deep, and one match takes at most 200 million linear steps or one million
/// backtracking steps.
public struct ECMAPattern: Sendable {
    /// The compiled parts, held by reference so that copying a pattern (as a validator reading a
    /// compiled schema does) is one retain, not one per array.
    private final class Compiled: Sendable {
        let program: PatternProgram
        /// The parsed pattern, for `matchesByBacktracking(_:)` when `program` is linear.
        let tree: PatternNode
        let captureCount: Int
        let unicode: Bool
        let limits: Limits

        init(program: PatternProgram, tree: PatternNode, captureCount: Int, unicode: Bool, limits: Limits) {
            self.program = program
            self.tree = tree
            self.captureCount = captureCount
            self.unicode = unicode
            self.limits = limits
        }
    }

    private let compiled: Compiled

    /// Compiles an ECMA-262 pattern; `unicode` is the `u` flag (2020-12 uses it; draft 4 does not).
    public init(_ source: String, unicode: Bool) throws(PatternError) {
        try self.init(source, unicode: unicode, limits: .default)
    }

    /// Compiles an ECMA-262 pattern with explicit limits.
    public init(_ source: String, unicode: Bool, limits: Limits) throws(PatternError) {
        var parser = try PatternParser(source, unicode: unicode, maxNesting: limits.maxNesting)
        let tree = try parser.parse()
        let program = try PatternProgram(tree, sets: parser.sets, captureCount: parser.captureTotal,
                                         backtracking: tree.needsBacktracking, maxSize: limits.maxProgramSize)
        compiled = Compiled(program: program, tree: tree, captureCount: parser.captureTotal, unicode: unicode,
                            limits: limits)
    }

    /// RegExp.prototype.test semantics: true when the pattern matches anywhere in `text` (unanchored search).
    /// Throws `PatternError` with code `.budgetExceeded` when the match would exceed its work budget.
    public func matches(_ text: String) throws(PatternError) -> Bool {
        let compiled = self.compiled
        if compiled.program.isSequence {
            // ASCII text (most `pattern` instances) is matched on its bytes.
            if let outcome = try text.utf8.withContiguousStorageIfAvailable({ asciiOutcome($0) })?.result() {
                return outcome
            }
            return try SequenceMatcher(compiled.program, maxSteps: compiled.limits.maxSteps)
                .matches(TextUnits(text: text, unicode: compiled.unicode))
        }
        let units = TextUnits(text: text, unicode: compiled.unicode)
        if compiled.program.isBacktracking {
            var matcher = BacktrackingMatcher(
                compiled.program, text: Array(units), maxSteps: compiled.limits.maxBacktrackingSteps)
            return try matcher.search()
        }
        return try PikeMatcher(compiled.program, maxSteps: compiled.limits.maxSteps).matches(units)
    }

    /// `matches(_:)` for the text whose UTF-8 bytes are `bytes`, when the pattern is a sequence
    /// (see ``SequenceMatcher``) and the bytes are ASCII; `nil` otherwise (then match the text).
    func matches(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(PatternError) -> Bool? {
        try asciiOutcome(bytes).result()
    }

    /// The units of a pattern that is `^`, units and `$`, when ``matches(utf8:)`` of ASCII text
    /// is exactly whether the text is one of these units per byte (its step budget fits the
    /// longest text that can match); `nil` for any other pattern.
    var wholeASCIIUnits: [(low: UInt64, high: UInt64)]? {
        guard compiled.program.isSequence, let units = compiled.program.wholeASCIIUnits,
              2 * units.count + 3 <= compiled.limits.maxSteps else { return nil }
        return units
    }

    /// What ``SequenceMatcher/matchesASCII(_:_:anchored:maxSteps:)`` makes of `bytes`.
    private func asciiOutcome(_ bytes: UnsafeBufferPointer<UInt8>) -> ASCIIOutcome {
        let compiled = self.compiled
        guard compiled.program.isSequence, bytes.allSatisfy({ $0 < 0x80 }) else { return .notApplicable }
        let maxSteps = compiled.limits.maxSteps
        // A whole-text sequence takes at most its instructions from the start and one step from
        // each later one: within a budget that fits them, only the verdict can differ.
        if let units = compiled.program.wholeASCIIUnits, units.count + bytes.count + 3 <= maxSteps {
            return .matched(SequenceMatcher.matchesWhole(bytes, units))
        }
        guard let matched = SequenceMatcher.matchesASCII(
            bytes, compiled.program.asciiSteps, anchored: compiled.program.isAnchoredAtStart, maxSteps: maxSteps)
        else { return .budgetExceeded(maxSteps) }
        return .matched(matched)
    }

    private enum ASCIIOutcome {
        case matched(Bool)
        case budgetExceeded(Int)
        /// Not a sequence, or not ASCII text.
        case notApplicable

        /// Whether it matched; `nil` when not applicable.
        func result() throws(PatternError) -> Bool? {
            switch self {
            case .matched(let matched): return matched
            case .budgetExceeded(let maxSteps):
                throw PatternError(code: .budgetExceeded,
                                   message: "the match needs more than \(maxSteps) steps", offset: nil)
            case .notApplicable: return nil
            }
        }
    }

    /// `matches(_:)` run on the backtracking matcher whatever the pattern, within
    /// ``Limits/maxBacktrackingSteps``: the tests and the fuzzer compare the two engines with it.
    @_spi(Testing)
    public func matchesByBacktracking(_ text: String) throws(PatternError) -> Bool {
        let program = compiled.program
        let units = Array(TextUnits(text: text, unicode: compiled.unicode))
        let backtracking = program.isBacktracking
            ? program
            : PatternProgram(compiled.tree, sets: program.sets, captureCount: compiled.captureCount, backtracking: true)
        var matcher = BacktrackingMatcher(backtracking, text: units, maxSteps: compiled.limits.maxBacktrackingSteps)
        return try matcher.search()
    }
}
