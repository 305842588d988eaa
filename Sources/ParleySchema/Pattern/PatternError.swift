/// Why an ECMA-262 pattern could not be compiled or matched.
public struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure: an open set of named values.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) { self.name = name }

        /// The pattern is not valid ECMA-262 syntax (in the mode it was compiled in).
        public static let syntax = Code("syntax")
        /// The pattern is valid ECMA-262 but uses a feature this engine does not implement.
        public static let unsupported = Code("unsupported")
        /// A limit was reached: the compiled program, the nesting depth or a match's work budget.
        public static let budgetExceeded = Code("budgetExceeded")

        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, in a sentence.
    public let message: String
    /// Where in the pattern, counted in UTF-16 code units without the `u` flag and in Unicode
    /// scalars with it; `nil` when the failure is not about one place (a match's budget).
    public let offset: Int?

    public init(code: Code, message: String, offset: Int?) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    public var description: String {
        offset.map { "\(code) at offset \($0): \(message)" } ?? "\(code): \(message)"
    }
}
