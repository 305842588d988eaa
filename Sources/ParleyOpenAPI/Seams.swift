import Parley

/// The two places the contract check hands work to code that lives elsewhere in the module:
/// turning a parameter's serialized text into a value by its `style` and `explode`
/// (`Parameters/`), and shaping a decoded body the way its Schema Object says (XML through
/// `xml`, CSV rows as objects: `BodyShapes/`). The defaults pass values through unchanged.
public struct ContractSeams: Sendable {
    /// The value of one parameter, or `nil` when the request does not carry it.
    public var deserializeParameter: @Sendable (ParameterInput) throws -> Value?
    /// The value a decoded body is validated as.
    public var shapeBody: @Sendable (Value, BodyShapeInput) throws -> Value

    /// Creates seams.
    public init(
        deserializeParameter: @escaping @Sendable (ParameterInput) throws -> Value?,
        shapeBody: @escaping @Sendable (Value, BodyShapeInput) throws -> Value
    ) {
        self.deserializeParameter = deserializeParameter
        self.shapeBody = shapeBody
    }

    /// Parameters as their percent-decoded text (a string, or an array of strings when a query
    /// name repeats), which schemas then read by type (`"5"` as 5); bodies unchanged, except that
    /// an XML document is its root element's content (as `parley schema validate` reads it).
    public static let passThrough = ContractSeams(
        deserializeParameter: { input in
            let plusAsSpace = input.location == .query
            let decoded = input.values.map { PercentEscaping.unescape(Array($0.utf8), plusAsSpace: plusAsSpace) }
            switch decoded.count {
            case 0: return nil
            case 1: return .string(decoded[0])
            default: return .array(decoded.map(Value.string))
            }
        },
        shapeBody: { value, input in
            let isXML = input.mediaType.subtype == "xml" || input.mediaType.suffix == "xml"
            if isXML, case .object(let root) = value, root.count == 1 { return root[0].value }
            return value
        })
}

/// What the parameter seam reads.
public struct ParameterInput: Sendable {
    /// The parameter as declared (name, location, style, explode, schema).
    public let parameter: CompiledParameter
    /// Its serialized occurrences, still percent-encoded: every query value given under its
    /// name, the path segment text, each header field value, the cookie value.
    public let values: [String]
    /// Every pair of the query string, still percent-encoded (`deepObject` and exploded `form`
    /// objects spread one parameter over several names).
    public let queryPairs: [(name: String, value: String)]

    /// Where the parameter travels.
    public var location: ParameterLocation { parameter.location }
}

/// What the body-shaping seam reads.
public struct BodyShapeInput: Sendable {
    /// The body's `Content-Type`.
    public let mediaType: MediaType
    /// The Schema Object the body is checked against (as written, with its location).
    public let schema: CompiledSchema
    /// Whether the decoding format's scalars are all text (XML, CSV, forms).
    public let scalarsAreText: Bool
}
