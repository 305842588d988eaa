/// Why raw request text (a parameter, a form body) or a decoded body could not be read into the
/// value a Schema Object describes.
///
/// Only the serialization is checked here: text that does not read as the schema's type is kept
/// as a string, so schema validation reports the type error with the offending value.
public struct DeserializationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong. An open set; compare by code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short identifier such as `"malformedEscape"`.
        public let rawValue: String
        /// Creates a code.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A `%` not followed by two hex digits, or escapes that do not decode to UTF-8.
        public static let malformedEscape = Code("malformedEscape")
        /// A `label` value without its leading `.`, or a `matrix` value without `;name`.
        public static let missingPrefix = Code("missingPrefix")
        /// An object serialized as a list whose names and values do not pair up.
        public static let malformedPairs = Code("malformedPairs")
        /// A `deepObject` name with nested or empty brackets (`color[a][b]`, `color[]`).
        public static let malformedDeepObject = Code("malformedDeepObject")
        /// An empty query value for a parameter whose `allowEmptyValue` is false.
        public static let emptyValue = Code("emptyValue")
        /// A `style` the parameter's location does not allow (`deepObject` in a path).
        public static let unsupportedStyle = Code("unsupportedStyle")
        /// A `content` parameter or form property whose text its media type does not decode.
        public static let undecodableContent = Code("undecodableContent")
        /// A `$ref` the resolver does not know, or a chain of more than 64 references.
        public static let unresolvedReference = Code("unresolvedReference")
        /// A body nested deeper than ``XMLBodyShape/maxDepth``.
        public static let limitExceeded = Code("limitExceeded")
    }

    /// What went wrong.
    public let code: Code
    /// What was being read: `query parameter 'color'`, `form property 'tags'`, `XML body`.
    public let subject: String
    /// The offending text (at most 80 characters of it).
    public let text: String
    /// What was expected.
    public let message: String
    /// The error of the format that failed to decode a `content` value, if any.
    public let underlying: (any Error)?

    /// Creates an error; `text` is cut to its first 80 characters.
    public init(_ code: Code, subject: String, text: String, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.subject = subject
        self.text = text.count > 80 ? String(text.prefix(80)) + "…" : text
        self.message = message
        self.underlying = underlying
    }

    /// One line: subject, message and the offending text.
    public var description: String {
        let shown = String(text.unicodeScalars.map { $0.value < 0x20 || $0 == "\u{7F}" ? "?" : Character($0) })
        return "\(subject): \(message) (text '\(shown)')"
    }
}
