public import Parley
public import ParleySchema

// The compiled parts an exchange's check walks are final classes, not structs: the check reads
// them by reference instead of copying each one's fields (and retaining them) per exchange.

/// A Schema Object of the document compiled for validation, with where it is.
public final class CompiledSchema: Sendable {
    /// The validator.
    public let schema: JSONSchema
    /// The Schema Object as written (a `$ref` is not followed), for the body-shaping seam.
    public let raw: Value
    /// `file#pointer` of the Schema Object, the start of every `schema_path` it reports.
    public let location: String
    /// Finds the Schema Objects `raw`'s `$ref`s name in its file, for reading text by type.
    public let resolver: SchemaReferenceResolver

    init(schema: JSONSchema, raw: Value, location: String, resolver: SchemaReferenceResolver) {
        self.schema = schema
        self.raw = raw
        self.location = location
        self.resolver = resolver
    }
}

/// One operation of the document, ready to check exchanges against.
public final class CompiledOperation: Sendable {
    /// The HTTP method, upper case.
    public let method: String
    /// The path template as the document writes it (`/books/{id}`).
    public let pathTemplate: String
    /// The `operationId`, if any.
    public let operationID: String?
    /// The operation's parameters, path-level ones included (operation-level ones win).
    public let parameters: [CompiledParameter]
    /// The request body, if the operation declares one.
    public let requestBody: CompiledRequestBody?
    /// The declared responses.
    public let responses: CompiledResponses
    /// The base paths of the servers that serve it (its own `servers`, else its path item's,
    /// else the document's), longest first.
    let basePaths: [[PathSegmentPattern]]

    init(method: String, pathTemplate: String, operationID: String?, parameters: [CompiledParameter],
         requestBody: CompiledRequestBody?, responses: CompiledResponses, basePaths: [[PathSegmentPattern]]) {
        self.method = method
        self.pathTemplate = pathTemplate
        self.operationID = operationID
        self.parameters = parameters
        self.requestBody = requestBody
        self.responses = responses
        self.basePaths = basePaths
    }

    /// The `operationId`, or `METHOD /template` when it has none.
    public var name: String { operationID ?? "\(method) \(pathTemplate)" }
}

/// A declared parameter.
public final class CompiledParameter: Sendable {
    public let name: String
    public let location: ParameterLocation
    public let isRequired: Bool
    /// Reads the parameter's serialized text by its `style`, `explode` and schema types.
    public let deserializer: ParameterDeserializer
    /// The schema (of `schema`, or of the single `content` entry); `nil` when none.
    public let schema: CompiledSchema?

    init(name: String, location: ParameterLocation, isRequired: Bool, deserializer: ParameterDeserializer,
         schema: CompiledSchema?) {
        self.name = name
        self.location = location
        self.isRequired = isRequired
        self.deserializer = deserializer
        self.schema = schema
    }

    /// The parameter's value in `input` (``ParameterDeserializer/value(in:)``); called here, the
    /// deserializer is read in place rather than copied out of the class.
    func value(in input: ParameterInput) throws(DeserializationError) -> Value? {
        try deserializer.value(in: input)
    }
}

/// A declared request body.
public struct CompiledRequestBody: Sendable {
    public let isRequired: Bool
    public let content: CompiledContent
}

/// A `content` map: declared media types (or ranges) with their schemas.
public final class CompiledContent: Sendable {
    /// A declared media type and its schema (`nil`: declared without one).
    public struct Entry: Sendable {
        public let declared: MediaType
        public let schema: CompiledSchema?
    }

    public let entries: [Entry]
    let matcher: MediaTypeMatcher

    init(entries: [Entry]) {
        self.entries = entries
        self.matcher = MediaTypeMatcher(entries.map(\.declared))
    }

    /// The declared entry for `contentType`, by the engine's matching rules (exact, `+suffix`
    /// ranges, the suffix's base type, `type/*`, `*/*`).
    public func entry(for contentType: MediaType) -> Entry? {
        matcher.match(contentType).map { entries[$0.owner] }
    }

    /// The declared types, for messages.
    var declaredList: String { entries.isEmpty ? "none" : entries.map(\.declared.description).joined(separator: ", ") }
}

/// A declared response header.
public final class CompiledHeader: Sendable {
    public let name: String
    public let isRequired: Bool
    public let schema: CompiledSchema?
    /// Reads the header's text (`simple` style) by the schema's types; present when `schema` is.
    let reader: ParameterDeserializer?

    init(name: String, isRequired: Bool, schema: CompiledSchema?, reader: ParameterDeserializer?) {
        self.name = name
        self.isRequired = isRequired
        self.schema = schema
        self.reader = reader
    }

    /// The header's value in `input` read by ``reader``, `nil` when absent or declared without a schema.
    func value(in input: ParameterInput) throws(DeserializationError) -> Value? {
        try reader?.value(in: input)
    }
}

/// A declared response.
public final class CompiledResponse: Sendable {
    /// The key it is declared under (`200`, `2XX`, `default`).
    public let key: String
    public let headers: [CompiledHeader]
    public let content: CompiledContent

    init(key: String, headers: [CompiledHeader], content: CompiledContent) {
        self.key = key
        self.headers = headers
        self.content = content
    }
}

/// An operation's responses by status: exact codes, then ranges, then `default`.
public struct CompiledResponses: Sendable {
    var exact: [Int: CompiledResponse] = [:]
    var ranges: [Int: CompiledResponse] = [:]
    var fallback: CompiledResponse?
    /// The declared keys, in document order, for messages.
    var keys: [String] = []

    /// The response declared for `status`.
    public func response(for status: Int) -> CompiledResponse? {
        exact[status] ?? ranges[status / 100] ?? fallback
    }
}
