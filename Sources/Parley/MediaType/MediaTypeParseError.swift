/// Why a media type (a `Content-Type` value or an `Accept` element) could not be parsed.
public struct MediaTypeParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What broke. Compare by code, not by message.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short identifier such as `"missingSubtype"`.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Nothing but whitespace.
        public static let empty = Code("empty")
        /// No type before `/`.
        public static let missingType = Code("missingType")
        /// No `/`, or nothing after it.
        public static let missingSubtype = Code("missingSubtype")
        /// A byte that is not allowed where it stands.
        public static let invalidCharacter = Code("invalidCharacter")
        /// A control character.
        public static let controlCharacter = Code("controlCharacter")
        /// `*/subtype`: a wildcard type needs a wildcard subtype.
        public static let wildcardTypeWithSubtype = Code("wildcardTypeWithSubtype")
        /// A parameter name with no `=`.
        public static let missingParameterValue = Code("missingParameterValue")
        /// `name=` with nothing after it.
        public static let emptyParameterValue = Code("emptyParameterValue")
        /// A quoted string with no closing quote.
        public static let unterminatedQuote = Code("unterminatedQuote")
        /// Something other than `;` after a closing quote.
        public static let junkAfterQuotedString = Code("junkAfterQuotedString")
        /// A parameter name given twice (RFC 6838 §4.3).
        public static let duplicateParameter = Code("duplicateParameter")
        /// A comma: a list where one value was expected.
        public static let list = Code("list")
        /// Longer than the caller's bound.
        public static let tooLong = Code("tooLong")
        /// More parameters than ``MediaType/maxParameterCount``.
        public static let tooManyParameters = Code("tooManyParameters")
    }

    /// What broke.
    public let code: Code
    /// Zero-based byte offset of the offending byte in the input.
    public let offset: Int
    /// A one-line explanation.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, at offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    public var description: String { "\(message) (at byte \(offset))" }
}
