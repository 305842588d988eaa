public import Parley

/// Reads an `application/x-www-form-urlencoded` body into the object its schema describes,
/// with the Media Type Object's `encoding`: each property is read like a query parameter of
/// that name (`style` default `form`, `explode` default true for `form`, `allowReserved`), or,
/// when its encoding names a `contentType`, decoded by that type's format.
///
/// Members the schema does not declare are kept as strings (a list when repeated), so
/// `additionalProperties: false` reports them. Empty values are allowed.
///
/// ```swift
/// let form = FormBodyShape(schema: ["type": "object", "properties": ["id": ["type": "integer"]]])
/// try form.value(fromBody: "id=7&note=hi+there")   // {"id": 7, "note": "hi there"}
/// ```
public struct FormBodyShape: Sendable {
    /// How one property is serialized: an Encoding Object.
    public struct PropertyEncoding: Sendable, Hashable {
        /// The media type of the property's value (`application/json`), or `nil` for a style.
        public var contentType: MediaType?
        /// The style (`form` when `nil`).
        public var style: ParameterStyle?
        /// Whether arrays and objects are exploded (`nil`: true for `form`).
        public var explode: Bool?
        /// Whether reserved characters are sent as they are (then `+` is a plus sign).
        public var allowReserved: Bool

        /// Creates an encoding.
        public init(contentType: MediaType? = nil, style: ParameterStyle? = nil, explode: Bool? = nil,
                    allowReserved: Bool = false) {
            self.contentType = contentType
            self.style = style
            self.explode = explode
            self.allowReserved = allowReserved
        }
    }

    /// The body's Schema Object, as a value.
    public let schema: Value?
    /// The encodings by property name.
    public let encoding: [String: PropertyEncoding]
    let registry: Registry?
    let resolver: SchemaReferenceResolver

    /// Creates the reader of a form body.
    ///
    /// - Parameters:
    ///   - schema: The body's Schema Object, as a value.
    ///   - encoding: The Media Type Object's `encoding`, by property name.
    ///   - registry: The formats that decode properties whose encoding names a `contentType`;
    ///     without one, such properties are read as text.
    ///   - resolver: Finds the schemas `$ref`s name.
    public init(schema: Value?, encoding: [String: PropertyEncoding] = [:], registry: Registry? = nil,
                resolver: SchemaReferenceResolver = .none) {
        self.schema = schema
        self.encoding = encoding
        self.registry = registry
        self.resolver = resolver
    }

    /// The body's members as an object: declared properties by their encoding, others as text.
    ///
    /// - Parameter body: The body as text (`a=1&b=two`).
    /// - Throws: ``DeserializationError`` as ``ParameterDeserializer/value(in:)`` does, for the
    ///   property that failed (`unsupportedStyle` for a style a query could not use).
    public func value(fromBody body: String) throws(DeserializationError) -> Value {
        let input = ParameterInput(query: body)
        let node = try SchemaNode.resolve(schema, resolver: resolver, subject: "form body")
        var members: [Value.Object.Member] = []
        var claimed = Set<String>()
        var deepObjects: [String] = []
        for property in try node?.propertyNames(subject: "form body") ?? [] {
            let propertySchema = try node?.property(property, subject: "form body")?.schema
            let encoding = encoding[property] ?? PropertyEncoding()
            var reader: ParameterDeserializer
            if let contentType = encoding.contentType, let registry {
                reader = ParameterDeserializer(name: property, location: .query, contentType: contentType,
                                               schema: propertySchema, registry: registry)
            } else {
                do {
                    reader = try ParameterDeserializer(
                        name: property, location: .query, style: encoding.style ?? .form, explode: encoding.explode,
                        allowReserved: encoding.allowReserved, allowEmptyValue: true, schema: propertySchema,
                        resolver: resolver)
                } catch {
                    throw DeserializationError(error.code, subject: "form property '\(property)'", text: error.text,
                                               error.message)
                }
            }
            reader.role = "form property"
            claimed.insert(property)
            if reader.style == .deepObject { deepObjects.append(property + "[") }
            if reader.contentType == nil, reader.explode, reader.style != .deepObject,
               let propertyNode = try SchemaNode.resolve(propertySchema, resolver: resolver, subject: "form body"),
               try propertyNode.kind(subject: "form body") == .object {
                claimed.formUnion(try propertyNode.propertyNames(subject: "form body"))
            }
            if let value = try reader.value(in: input) { members.append(.init(key: property, value: value)) }
        }
        var extra: [String: [String]] = [:]
        var extraOrder: [String] = []
        for pair in input.queryPairs where !claimed.contains(pair.name)
            && !deepObjects.contains(where: { pair.name.hasPrefix($0) }) {
            let text = PercentEscaping.unescape(Array((pair.rawValue ?? "").utf8), plusAsSpace: true)
            if extra[pair.name] == nil { extraOrder.append(pair.name) }
            extra[pair.name, default: []].append(text)
        }
        for name in extraOrder {
            let texts = extra[name] ?? []
            let value: Value = texts.count == 1 ? .string(texts[0]) : .array(texts.map(Value.string))
            members.append(.init(key: name, value: value))
        }
        return .object(Value.Object(members))
    }
}
