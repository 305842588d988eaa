/// Why a schema did not compile, or why validation stopped at a limit.
public struct SchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// The schema breaks its dialect's rules (a keyword of the wrong type, an invalid pattern).
        public static let invalidSchema = Code(name: "invalidSchema")
        /// A `$ref` names a document or location that was not found (nothing is fetched).
        public static let unresolvedReference = Code(name: "unresolvedReference")
        /// A `$schema` or `$vocabulary` the module does not support and may not ignore.
        public static let unsupportedDialect = Code(name: "unsupportedDialect")
        /// A limit of ``JSONSchema/Limits`` was reached; ``SchemaError/limit`` names it.
        public static let limitExceeded = Code(name: "limitExceeded")
        /// A pattern would exceed the pattern engine's work budget.
        public static let patternBudgetExceeded = Code(name: "patternBudgetExceeded")
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// A one-line explanation.
    public let message: String
    /// Where in the schema, as a URI with a JSON Pointer fragment, when known.
    public let schemaLocation: String?
    /// The limit that was reached (`"maxDepth"`, `"maxWork"`), for ``Code/limitExceeded``.
    public let limit: String?

    /// Creates an error.
    public init(code: Code, message: String, schemaLocation: String? = nil, limit: String? = nil) {
        self.code = code
        self.message = message
        self.schemaLocation = schemaLocation
        self.limit = limit
    }

    public var description: String {
        var text = "schema \(code): \(message)"
        if let schemaLocation { text += " (at \(schemaLocation))" }
        return text
    }
}
