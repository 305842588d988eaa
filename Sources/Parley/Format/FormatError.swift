/// The error a format throws when it cannot decode or encode.
///
/// Compare errors by ``code``; the message is for people.
public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. An open set: formats may define their own codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short identifier such as `"malformed"`.
        public let rawValue: String
        /// Creates a code.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The input breaks the format's grammar.
        public static let malformed = Code("malformed")
        /// The input ended before the document did.
        public static let truncated = Code("truncated")
        /// A ``DecodingLimits`` bound was reached; see ``FormatError/limit``.
        public static let limitExceeded = Code("limitExceeded")
        /// The value has no representation in this format (encoding).
        public static let unsupportedValue = Code("unsupportedValue")
        /// The format does not handle this media type (or does not encode at all).
        public static let unsupportedMediaType = Code("unsupportedMediaType")
        /// The bytes are not valid in the declared character set.
        public static let invalidText = Code("invalidText")
        /// The input is refused for safety (an external entity, a forbidden tag).
        public static let forbidden = Code("forbidden")
    }

    /// Where in the input an error was found. Fields are `nil` when unknown.
    public struct Location: Hashable, Sendable, CustomStringConvertible {
        /// Zero-based byte offset into the body.
        public var byteOffset: Int?
        /// One-based line.
        public var line: Int?
        /// One-based column.
        public var column: Int?

        /// Creates a location.
        public init(byteOffset: Int? = nil, line: Int? = nil, column: Int? = nil) {
            self.byteOffset = byteOffset
            self.line = line
            self.column = column
        }

        public var description: String {
            var parts: [String] = []
            if let line {
                parts.append(column.map { "line \(line), column \($0)" } ?? "line \(line)")
            }
            if let byteOffset { parts.append("byte \(byteOffset)") }
            return parts.joined(separator: ", ")
        }
    }

    /// Which limit was exceeded, by how much.
    public struct Limit: Hashable, Sendable, CustomStringConvertible {
        /// The limit's name, as the ``DecodingLimits`` property (`"maxDepth"`).
        public var name: String
        /// The bound in force.
        public var maximum: Int
        /// The value reached or declared, when known.
        public var actual: Int?

        /// Creates a limit description.
        public init(name: String, maximum: Int, actual: Int? = nil) {
            self.name = name
            self.maximum = maximum
            self.actual = actual
        }

        public var description: String {
            actual.map { "\(name) \(maximum) exceeded (\($0))" } ?? "\(name) \(maximum) exceeded"
        }
    }

    /// What went wrong.
    public var code: Code
    /// The name of the format that failed (``Format/name``).
    public var format: String
    /// A one-line explanation.
    public var message: String
    /// Where in the input, when known.
    public var location: Location?
    /// The limit that was exceeded, for ``Code/limitExceeded``.
    public var limit: Limit?

    /// Creates an error.
    public init(_ code: Code, format: String, _ message: String,
                location: Location? = nil, limit: Limit? = nil) {
        self.code = code
        self.format = format
        self.message = message
        self.location = location
        self.limit = limit
    }

    /// A ``Code/limitExceeded`` error naming the limit.
    public static func limitExceeded(format: String, limit name: String, maximum: Int,
                                     actual: Int? = nil, location: Location? = nil) -> FormatError {
        let limit = Limit(name: name, maximum: maximum, actual: actual)
        return FormatError(.limitExceeded, format: format, "\(limit)",
                           location: location, limit: limit)
    }

    public var description: String {
        var text = "\(format): \(code)"
        if let location, !location.description.isEmpty { text += " at \(location)" }
        if !message.isEmpty { text += ": \(message)" }
        return text
    }
}
