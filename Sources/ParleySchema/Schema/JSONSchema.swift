public import Parley

/// A JSON Schema compiled once into a reusable validator for `Value` instances from any format.
///
/// ```swift
/// let schema = try JSONSchema(["type": "object", "required": ["id"]])
/// let result = try schema.validate(instance)
/// if !result.isValid { print(result.errors) }
/// ```
///
/// The dialect comes from ``Options/dialect``, else the schema's `$schema`, else 2020-12.
/// `$ref`s resolve inside the schema and against ``Options/resources``; nothing is fetched.
public struct JSONSchema: Sendable {
    let program: Program
    /// The options the schema was compiled with.
    public let options: Options

    /// Compiles `schema`.
    ///
    /// - Parameters:
    ///   - schema: The schema document (an object or a Boolean).
    ///   - options: The dialect, format assertion, other documents and limits.
    /// - Throws: ``SchemaError`` with ``SchemaError/Code/invalidSchema``,
    ///   ``SchemaError/Code/unresolvedReference``, ``SchemaError/Code/unsupportedDialect`` or
    ///   ``SchemaError/Code/limitExceeded`` (``Limits/maxSchemaNodes``).
    public init(_ schema: Value, options: Options = Options()) throws(SchemaError) {
        var compiler = Compiler(resources: options.resources, options: options)
        self.program = try compiler.compile(schema)
        self.options = options
    }

    /// Validates `instance`.
    ///
    /// - Parameters:
    ///   - instance: The value to check, from any format.
    ///   - options: The output mode, direction and coercion.
    /// - Returns: Whether it is valid, and why not.
    /// - Throws: ``SchemaError`` with ``SchemaError/Code/limitExceeded`` (``Limits/maxDepth``,
    ///   ``Limits/maxWork``) or ``SchemaError/Code/patternBudgetExceeded``.
    public func validate(_ instance: Value, options: ValidationOptions = ValidationOptions()) throws(SchemaError)
        -> ValidationResult
    {
        var validator = Validator(program: program, limits: self.options.limits, options: options)
        let valid = try validator.run(instance)
        return ValidationResult(isValid: valid, errors: validator.errors)
    }

    /// Whether `instance` is valid (``OutputMode/flag`` mode: stops at the first failure).
    /// - Throws: As ``validate(_:options:)``.
    public func isValid(_ instance: Value, options: ValidationOptions = ValidationOptions()) throws(SchemaError) -> Bool
    {
        try isValidInstance(instance, options: options)
    }

    /// ``isValid(_:options:)`` of a parsed JSON text, read from its tape without building its
    /// values: the same verdict as for the text's decoded `Value`.
    package func isValid(_ instance: JSONTapeInstance, options: ValidationOptions = ValidationOptions())
        throws(SchemaError) -> Bool
    {
        try isValidInstance(instance, options: options)
    }

    private func isValidInstance<I: SchemaInstance>(_ instance: I, options: ValidationOptions) throws(SchemaError)
        -> Bool
    {
        var flagOptions = options
        flagOptions.mode = .flag
        flagOptions.recordsErrors = false
        var validator = Validator(program: program, limits: self.options.limits, options: flagOptions)
        return try validator.run(instance)
    }
}

extension JSONSchema {
    /// How a schema compiles.
    public struct Options: Sendable {
        /// The dialect; `nil` reads it from `$schema` (2020-12 when absent).
        public var dialect: Dialect?
        /// Whether `format` asserts (otherwise it is an annotation, as 2020-12 says).
        public var formatAssertion: Bool
        /// The documents `$ref`s may reach beyond the schema itself.
        public var resources: SchemaResources
        /// Bounds on compiling and validating.
        public var limits: Limits

        /// Creates options.
        public init(
            dialect: Dialect? = nil, formatAssertion: Bool = false, resources: SchemaResources = SchemaResources(),
            limits: Limits = Limits()
        ) {
            self.dialect = dialect
            self.formatAssertion = formatAssertion
            self.resources = resources
            self.limits = limits
        }
    }

    /// Bounds that keep hostile schemas and instances cheap.
    public struct Limits: Sendable, Hashable {
        /// The deepest nesting of subschema evaluations (instance depth plus `$ref` hops); default 200.
        public var maxDepth: Int
        /// The most errors ``OutputMode/basic`` collects; default 100.
        public var maxErrors: Int
        /// The most subschema evaluations plus elements visited per validation; default 10,000,000.
        public var maxWork: Int
        /// The most subschemas one schema compiles to; default 100,000.
        public var maxSchemaNodes: Int

        /// Creates limits.
        public init(maxDepth: Int = 200, maxErrors: Int = 100, maxWork: Int = 10_000_000, maxSchemaNodes: Int = 100_000)
        {
            self.maxDepth = maxDepth
            self.maxErrors = maxErrors
            self.maxWork = maxWork
            self.maxSchemaNodes = maxSchemaNodes
        }
    }

    /// How many failures validation reports.
    public enum OutputMode: String, Sendable, Hashable {
        /// Stops at the first failure and reports it.
        case flag
        /// Reports every failure, up to ``Limits/maxErrors``.
        case basic
    }

    /// How one validation runs.
    public struct ValidationOptions: Sendable, Hashable {
        /// Flag (first failure) or basic (all, capped); default basic.
        public var mode: OutputMode
        /// The side of an exchange, for OpenAPI `readOnly`/`writeOnly`; `nil` checks neither.
        public var direction: Direction?
        /// Whether string scalars are read as the schema's `type` says (`"5"` as integer 5,
        /// `"true"` as `true`), for formats whose scalars are text (XML, CSV, forms, headers).
        public var coercesStrings: Bool
        /// Whether failures are recorded (off, only validity is computed).
        var recordsErrors: Bool = true

        /// Creates options.
        public init(mode: OutputMode = .basic, direction: Direction? = nil, coercesStrings: Bool = false) {
            self.mode = mode
            self.direction = direction
            self.coercesStrings = coercesStrings
        }
    }
}
