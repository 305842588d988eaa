// TEMPORARY: replaced by the ECMA engine at merge
// A stand-in over the standard library's `Regex`, with the fixed interface of the ECMA-262 engine.

/// A compiled ECMA-262 regular expression (temporary stand-in over `Regex`).
public struct ECMAPattern: Sendable {
    /// The pattern's source text.
    let source: String
    /// Whether the `u` flag is set.
    let unicode: Bool
    /// The compiled expression; `Regex` is not `Sendable`, but a compiled one is never mutated.
    nonisolated(unsafe) let regex: Regex<AnyRegexOutput>

    /// Compiles an ECMA-262 pattern; `unicode` is the `u` flag (2020-12 uses it; draft 4 does not).
    public init(_ source: String, unicode: Bool) throws(PatternError) {
        self.source = source
        self.unicode = unicode
        do {
            regex = try Regex(source).asciiOnlyDigits().asciiOnlyWordCharacters()
        } catch {
            throw PatternError(code: .syntax, message: "\(error)", offset: nil)
        }
    }

    /// RegExp.prototype.test semantics: true when the pattern matches anywhere in `text` (unanchored search).
    /// Throws `PatternError` with code `.budgetExceeded` when the match would exceed its work budget.
    public func matches(_ text: String) throws(PatternError) -> Bool {
        do {
            return try regex.firstMatch(in: text) != nil
        } catch {
            throw PatternError(code: .budgetExceeded, message: "\(error)", offset: nil)
        }
    }
}

/// Why a pattern did not compile or match.
public struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable {
        let name: String
        /// The pattern breaks the ECMA-262 grammar.
        public static let syntax = Code(name: "syntax")
        /// The pattern uses a feature the engine does not support.
        public static let unsupported = Code(name: "unsupported")
        /// The match would exceed the engine's work budget.
        public static let budgetExceeded = Code(name: "budgetExceeded")
    }

    /// What went wrong.
    public let code: Code
    /// A one-line explanation.
    public let message: String
    /// The offset into the pattern, when known.
    public let offset: Int?

    /// Creates an error.
    public init(code: Code, message: String, offset: Int?) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    public var description: String { "pattern \(code.name): \(message)" }
}
