public import Parley

/// Reads one parameter of a request into the value its schema describes, by the parameter's
/// `in`, `style`, `explode`, `allowReserved`, `allowEmptyValue` and `schema` (or its `content`).
///
/// Text is percent-decoded the way its location writes it (`+` is a space only in query strings
/// and form bodies) and then coerced by the schema's `type`: integers, numbers and Booleans
/// become those values, array items by `items`, object members by `properties`. Text that does
/// not read as the type stays a string, so schema validation reports the type error; only a
/// broken serialization throws. See <doc:ParameterStyles>.
///
/// ```swift
/// let color = try ParameterDeserializer(name: "color", location: .query, explode: false,
///                                       schema: ["type": "array", "items": ["type": "integer"]])
/// try color.value(in: ParameterInput(query: "color=1,2,3"))   // [1, 2, 3]
/// try color.value(in: ParameterInput(query: "size=9"))        // nil: absent
/// ```
public struct ParameterDeserializer: Sendable {
    /// The parameter's name (case-insensitive for headers).
    public let name: String
    /// Where the parameter is.
    public let location: ParameterLocation
    /// Its style (the location's default when the document names none).
    public let style: ParameterStyle
    /// Whether arrays and objects are exploded (default: `true` for `form`, else `false`).
    public let explode: Bool
    /// Whether a query value's reserved characters are sent as they are (then `+` is a plus sign).
    public let allowReserved: Bool
    /// Whether a query parameter may be sent with an empty value (`?color=`).
    public let allowEmptyValue: Bool
    /// The Schema Object, as a value, whose types the text is coerced to.
    public let schema: Value?
    /// The media type of a `content` parameter, whose text that type's format decodes.
    public let contentType: MediaType?
    let resolver: SchemaReferenceResolver
    let registry: Registry?
    /// What errors call the parameter's kind (`form property` when a form body reads it).
    var role: String?
    /// The schema with its `$ref`s followed and the kind of value it serializes, read once rather
    /// than per value; the kind is `nil` when the schema does not resolve (each read then resolves
    /// it again, to throw the error naming the parameter as its role names it).
    let preparedNode: SchemaNode?
    let preparedKind: SchemaNode.Kind?

    /// Creates the reader of a parameter serialized with a style.
    ///
    /// - Parameters:
    ///   - name: The parameter's `name`.
    ///   - location: Its `in`.
    ///   - style: Its `style`; `nil` for the location's default.
    ///   - explode: Its `explode`; `nil` for the default (`true` for `form` only).
    ///   - allowReserved: Its `allowReserved` (query only).
    ///   - allowEmptyValue: Its `allowEmptyValue` (query only).
    ///   - schema: Its Schema Object as a value (`$ref`s are followed with `resolver`).
    ///   - resolver: Finds the schemas `$ref`s name.
    /// - Throws: ``DeserializationError/Code/unsupportedStyle`` for a style `location` does not allow.
    public init(name: String, location: ParameterLocation, style: ParameterStyle? = nil, explode: Bool? = nil,
                allowReserved: Bool = false, allowEmptyValue: Bool = false, schema: Value?,
                resolver: SchemaReferenceResolver = .none) throws(DeserializationError) {
        let style = style ?? .defaultStyle(for: location)
        guard style.isAllowed(in: location) else {
            throw DeserializationError(.unsupportedStyle, subject: "\(location.rawValue) parameter '\(name)'",
                                       text: style.rawValue,
                                       "style \(style.rawValue) is not allowed in \(location.rawValue)")
        }
        self.name = name
        self.location = location
        self.style = style
        self.explode = explode ?? (style == .form)
        self.allowReserved = allowReserved
        self.allowEmptyValue = allowEmptyValue
        self.schema = schema
        self.contentType = nil
        self.resolver = resolver
        self.registry = nil
        let prepared = try? Self.prepare(schema, resolver: resolver)
        self.preparedNode = prepared?.node
        self.preparedKind = prepared?.kind
    }

    /// `schema` resolved, its types read once, and the kind of value it serializes.
    static func prepare(_ schema: Value?, resolver: SchemaReferenceResolver)
        throws(DeserializationError) -> (node: SchemaNode?, kind: SchemaNode.Kind)
    {
        guard var node = try SchemaNode.resolve(schema, resolver: resolver, subject: "") else {
            return (nil, .primitive)
        }
        node.knownTypes = try node.types(subject: "")
        return (node, try node.kind(subject: ""))
    }

    /// Creates the reader of a `content` parameter: its text (percent-decoded where its location
    /// encodes) is a document of `contentType`, such as a JSON-encoded query parameter.
    ///
    /// - Parameters:
    ///   - name: The parameter's `name`.
    ///   - location: Its `in`.
    ///   - contentType: The one media type its `content` names.
    ///   - schema: That media type's schema (kept for callers; the decoded value is not coerced).
    ///   - registry: The formats that decode `contentType`.
    public init(name: String, location: ParameterLocation, contentType: MediaType, schema: Value?,
                registry: Registry) {
        self.name = name
        self.location = location
        self.style = .defaultStyle(for: location)
        self.explode = style == .form
        self.allowReserved = false
        self.allowEmptyValue = true
        self.schema = schema
        self.contentType = contentType
        self.resolver = .none
        self.registry = registry
        self.preparedNode = nil
        self.preparedKind = .primitive
    }

    /// What errors name: `query parameter 'color'`.
    var subject: String { "\(role ?? location.rawValue + " parameter") '\(name)'" }

    /// The parameter's value in `input`, or `nil` when the request does not carry it (so a
    /// `required` parameter can be reported missing). Present but empty is a value: `""`, `[]`
    /// or `{}` by the schema's kind.
    ///
    /// - Throws: ``DeserializationError`` with `malformedEscape`, `missingPrefix`, `malformedPairs`,
    ///   `malformedDeepObject`, `emptyValue`, `undecodableContent` or `unresolvedReference`.
    public func value(in input: ParameterInput) throws(DeserializationError) -> Value? {
        if let contentType, let registry {
            return try contentValue(in: input, contentType: contentType, registry: registry)
        }
        guard let kind = preparedKind else {
            let node = try SchemaNode.resolve(schema, resolver: resolver, subject: subject)
            return try value(in: input, kind: try node?.kind(subject: subject) ?? .primitive, node: node)
        }
        return try value(in: input, kind: kind, node: preparedNode)
    }

    /// ``value(in:)`` with the schema resolved.
    private func value(in input: ParameterInput, kind: SchemaNode.Kind,
                       node: SchemaNode?) throws(DeserializationError) -> Value? {
        switch location {
        case .path:
            guard let text = input.variables.value(named: name) else { return nil }
            return try pathValue(text, kind: kind, node: node)
        case .query:
            return try queryValue(input.queryPairs, kind: kind, node: node)
        case .header:
            guard let text = input.headerValue(named: name) else { return nil }
            return try simpleValue(text, kind: kind, node: node)
        case .cookie:
            let cookies = input.cookies
            let values = cookies.filter { $0.name == name }.map { Substring($0.value) }
            return try cookieValue(values, cookies: cookies, kind: kind, node: node)
        }
    }

    /// A `content` parameter's text decoded by its media type's format.
    private func contentValue(in input: ParameterInput, contentType: MediaType,
                              registry: Registry) throws(DeserializationError) -> Value? {
        let text: String
        switch location {
        case .path:
            guard let raw = input.variables.value(named: name) else { return nil }
            text = try decoded(raw)
        case .query:
            guard let pair = input.queryPairs.first(where: { $0.name == name }) else { return nil }
            text = try decoded(pair.rawValue ?? "")
        case .header:
            guard let value = input.headerValue(named: name) else { return nil }
            text = value
        case .cookie:
            guard let cookie = input.cookies.first(where: { $0.name == name }) else { return nil }
            text = try decoded(cookie.value)
        }
        do {
            return try registry.decode(Array(text.utf8), contentType: contentType)
        } catch {
            throw DeserializationError(.undecodableContent, subject: subject, text: text,
                                       "not a \(contentType) document: \(error)", underlying: error)
        }
    }

    /// `raw` percent-decoded the way this parameter's location writes it: `+` is a space in a
    /// query (unless reserved characters are allowed), header values are not encoded at all.
    func decoded(_ raw: some StringProtocol) throws(DeserializationError) -> String {
        if location == .header { return String(raw) }
        let plusAsSpace = location == .query && !allowReserved
        guard let text = PercentEscaping.unescapeStrictly(text: Substring(raw), plusAsSpace: plusAsSpace) else {
            throw DeserializationError(.malformedEscape, subject: subject, text: String(raw),
                                       "a '%' must be followed by two hex digits and escapes must spell UTF-8")
        }
        return text
    }

    /// `text` coerced by `node`'s types.
    func coerced(_ text: String, node: SchemaNode?) throws(DeserializationError) -> Value {
        TextCoercion.coerce(text, to: try node?.types(subject: subject) ?? [])
    }

    /// Raw list items decoded and coerced as the array's items.
    func array(_ items: [Substring], node: SchemaNode?) throws(DeserializationError) -> Value {
        let itemNode = try node?.items(subject: subject)
        var values: [Value] = []
        values.reserveCapacity(items.count)
        for item in items { values.append(try coerced(try decoded(item), node: itemNode)) }
        return .array(values)
    }

    /// Raw name/value pairs decoded, each value coerced as its property.
    func object(_ pairs: [(Substring, Substring)], node: SchemaNode?) throws(DeserializationError) -> Value {
        var members: [Value.Object.Member] = []
        members.reserveCapacity(pairs.count)
        for (rawName, rawValue) in pairs {
            let key = try decoded(rawName)
            let value = try coerced(try decoded(rawValue), node: node?.property(key, subject: subject))
            members.append(.init(key: key, value: value))
        }
        return .object(Value.Object(members))
    }

    /// A list read as alternating names and values (`R,100,G,200`).
    func alternatingPairs(_ items: [Substring],
                          text: some StringProtocol) throws(DeserializationError) -> [(Substring, Substring)] {
        guard items.count.isMultiple(of: 2) else {
            throw DeserializationError(.malformedPairs, subject: subject, text: String(text),
                                       "an object needs a value after each name (name,value,…)")
        }
        return stride(from: 0, to: items.count, by: 2).map { (items[$0], items[$0 + 1]) }
    }

    /// A list read as `name=value` items (`R=100,G=200`); an item without `=` has an empty value.
    func keyedPairs(_ items: [Substring]) -> [(Substring, Substring)] {
        items.map { item in
            guard let equals = item.firstIndex(of: "=") else { return (item, item[item.endIndex...]) }
            return (item[..<equals], item[item.index(after: equals)...])
        }
    }
}
