public import Parley
import ParleySchema

/// Turns the value `XMLFormat` decodes a body into (`{root: content}`, attributes as `@name`
/// members, text as strings) into the JSON-shaped value a Schema Object describes, following
/// the schema's `xml` objects, so the schema validates an XML body as it would a JSON one.
///
/// - An object's properties are found as child elements named `xml.name` (else the property
///   name), or as attributes when `xml.attribute` is true; with `xml.namespace` the element's
///   prefix must be bound to that namespace (any prefix, or the default namespace), otherwise
///   the local name decides.
/// - An array property is its repeated item elements (named by the items' `xml.name`, else the
///   property name), or with `xml.wrapped` one wrapper element (`xml.name`, else the property
///   name) holding items named by the items' `xml.name`, else the wrapper's name. A root array is
///   the root element wrapping its items (every child element when the items name none).
/// - Text is coerced by the schema's `type` (surrounding white space ignored for non-strings);
///   text that does not read as the type stays a string for validation to report.
/// - Members the schema does not declare are kept as they were decoded (attributes as `@name`),
///   so `additionalProperties: false` reports them; namespace declarations are dropped.
///
/// The root element's name is not checked: documents rarely name their component after it.
public struct XMLBodyShape: Sendable {
    /// The most nested elements read (deeper bodies throw ``DeserializationError/Code/limitExceeded``).
    public static let maxDepth = 512

    /// The body's Schema Object, as a value.
    public let schema: Value?
    let resolver: SchemaReferenceResolver

    /// Creates the shape of an XML body with `schema` (`$ref`s followed with `resolver`).
    public init(schema: Value?, resolver: SchemaReferenceResolver = .none) {
        self.schema = schema
        self.resolver = resolver
    }

    static let subject = "XML body"

    /// The JSON-shaped value of a decoded XML body.
    ///
    /// - Parameter decoded: What `XMLFormat` decoded: an object with the root element as its one member.
    /// - Returns: The root element's content shaped by the schema.
    /// - Throws: ``DeserializationError`` with `unresolvedReference` or `limitExceeded`.
    public func value(from decoded: Value) throws(DeserializationError) -> Value {
        guard case .object(let document) = decoded, document.count == 1, let root = document.first else {
            return decoded
        }
        guard let node = try SchemaNode.resolve(schema, resolver: resolver, subject: Self.subject) else {
            return Self.withoutDeclarations(root.value)
        }
        let scope = NamespaceScope().entering(root.value)
        if try node.kind(subject: Self.subject) == .array {
            let items = try node.items(subject: Self.subject)
            return try itemsValue(in: root.value, named: items?.xml.name, hints: items?.xml, node: items,
                                  scope: scope, depth: 1)
        }
        return try shaped(root.value, node: node, scope: scope, depth: 1)
    }

    /// One element's decoded content shaped by `node`.
    func shaped(_ content: Value, node: SchemaNode?, scope: NamespaceScope,
                depth: Int) throws(DeserializationError) -> Value {
        guard depth <= Self.maxDepth else {
            throw DeserializationError(.limitExceeded, subject: Self.subject, text: "",
                                       "elements nested deeper than \(Self.maxDepth)")
        }
        guard let node else { return Self.withoutDeclarations(content) }
        if case .array(let repeated) = content {
            // A repeated element where the schema has no array: each one shaped, for validation to report.
            var values: [Value] = []
            for element in repeated { values.append(try shaped(element, node: node, scope: scope, depth: depth)) }
            return .array(values)
        }
        switch try node.kind(subject: Self.subject) {
        case .object: return try objectValue(content, node: node, scope: scope.entering(content), depth: depth)
        case .array:
            let items = try node.items(subject: Self.subject)
            return try itemsValue(in: content, named: items?.xml.name, hints: items?.xml, node: items,
                                  scope: scope.entering(content), depth: depth)
        case .primitive: return try coerced(Self.text(of: content), node: node)
        }
    }

    /// An object's properties read from an element's attributes and children.
    private func objectValue(_ content: Value, node: SchemaNode, scope: NamespaceScope,
                             depth: Int) throws(DeserializationError) -> Value {
        guard case .object(let members) = content else {
            if case .string(let text) = content, text.trimmingCharacters(in: " \t\r\n").isEmpty { return [:] }
            return content
        }
        var used = Set<String>()
        var result: [Value.Object.Member] = []
        for property in try node.propertyNames(subject: Self.subject) {
            guard let propertyNode = try node.property(property, subject: Self.subject) else { continue }
            let hints = propertyNode.xml
            if hints.isAttribute {
                let name = hints.name ?? property
                guard let key = members.map(\.key).first(where: {
                    $0.hasPrefix("@")
                        && scope.matches(String($0.dropFirst()), name: name, hints: hints, isAttribute: true)
                }), let value = members[key] else { continue }
                used.insert(key)
                result.append(.init(key: property, value: try coerced(Self.text(of: value), node: propertyNode)))
            } else if try propertyNode.kind(subject: Self.subject) == .array {
                let items = try propertyNode.items(subject: Self.subject)
                if hints.isWrapped {
                    let wrapperName = hints.name ?? property
                    guard let key = childKey(in: members, name: wrapperName, hints: hints, scope: scope),
                          let wrapper = members[key] else { continue }
                    used.insert(key)
                    let value = try itemsValue(in: wrapper, named: items?.xml.name ?? wrapperName, hints: items?.xml,
                                               node: items, scope: scope.entering(wrapper), depth: depth + 1)
                    result.append(.init(key: property, value: value))
                } else {
                    let itemHints = items?.xml ?? SchemaNode.XMLHints(nil)
                    guard let key = childKey(in: members, name: itemHints.name ?? property, hints: itemHints,
                                             scope: scope), let elements = members[key] else { continue }
                    used.insert(key)
                    let list = elements.arrayValue ?? [elements]
                    var values: [Value] = []
                    for element in list {
                        values.append(try shaped(element, node: items, scope: scope, depth: depth + 1))
                    }
                    result.append(.init(key: property, value: .array(values)))
                }
            } else {
                guard let key = childKey(in: members, name: hints.name ?? property, hints: hints, scope: scope),
                      let child = members[key] else { continue }
                used.insert(key)
                result.append(.init(key: property, value: try shaped(child, node: propertyNode, scope: scope,
                                                                     depth: depth + 1)))
            }
        }
        for member in members where !used.contains(member.key) && !Self.isDeclaration(member.key) {
            if member.key == "#text", member.value.stringValue?.trimmingCharacters(in: " \t\r\n").isEmpty ?? false {
                continue
            }
            result.append(.init(key: member.key, value: Self.withoutDeclarations(member.value)))
        }
        return .object(Value.Object(result))
    }

    /// The items of an array element: its children named `name` (every child element when the
    /// schema names none), each shaped by `node`.
    private func itemsValue(in content: Value, named name: String?, hints: SchemaNode.XMLHints?, node: SchemaNode?,
                            scope: NamespaceScope, depth: Int) throws(DeserializationError) -> Value {
        guard case .object(let members) = content else {
            if case .string(let text) = content, text.trimmingCharacters(in: " \t\r\n").isEmpty { return [] }
            return content
        }
        var elements: [Value] = []
        for member in members where !member.key.hasPrefix("@") && member.key != "#text" {
            if let name, !scope.entering(Self.firstElement(member.value))
                .matches(member.key, name: name, hints: hints ?? .init(nil), isAttribute: false) {
                continue
            }
            elements += member.value.arrayValue ?? [member.value]
        }
        var values: [Value] = []
        for element in elements { values.append(try shaped(element, node: node, scope: scope, depth: depth + 1)) }
        return .array(values)
    }

    /// The key of the child element `name` (an exact unprefixed name first).
    private func childKey(in members: Value.Object, name: String, hints: SchemaNode.XMLHints,
                          scope: NamespaceScope) -> String? {
        let keys = members.map(\.key).filter { !$0.hasPrefix("@") && $0 != "#text" }
        if hints.namespace == nil, hints.prefix == nil, keys.contains(name) { return name }
        return keys.first {
            scope.entering(Self.firstElement(members[$0])).matches($0, name: name, hints: hints, isAttribute: false)
        }
    }

    /// Text coerced by the schema's types; white space around a non-string is ignored.
    private func coerced(_ text: String, node: SchemaNode) throws(DeserializationError) -> Value {
        let types = try node.types(subject: Self.subject)
        if types.isEmpty || types.contains(.string) { return .string(text) }
        let trimmed = String(text.trimmingCharacters(in: " \t\r\n"))
        let value = TextCoercion.coerce(trimmed, to: types)
        return value == .string(trimmed) ? .string(text) : value
    }

    /// An element's text: the string itself, or an element's `#text` (empty when it has none).
    static func text(of content: Value) -> String {
        switch content {
        case .string(let text): text
        case .object(let members): members["#text"]?.stringValue ?? ""
        default: ""
        }
    }

    /// The element a member holds, the first of a repeated one (its namespace declarations bind
    /// its own name).
    static func firstElement(_ member: Value?) -> Value {
        guard let member else { return .null }
        if case .array(let elements) = member { return elements.first ?? .null }
        return member
    }

    /// Whether `key` is a namespace declaration (`@xmlns`, `@xmlns:p`).
    static func isDeclaration(_ key: String) -> Bool { key == "@xmlns" || key.hasPrefix("@xmlns:") }

    /// `content` without namespace declarations, at any depth; an element left with text only
    /// is that text, as `XMLFormat` decodes an element without attributes.
    static func withoutDeclarations(_ content: Value) -> Value {
        switch content {
        case .object(let members):
            let kept = members.filter { !isDeclaration($0.key) }
            if kept.isEmpty { return .string("") }
            if kept.count == 1, kept[0].key == "#text" { return kept[0].value }
            return .object(Value.Object(kept.map { .init(key: $0.key, value: withoutDeclarations($0.value)) }))
        case .array(let elements): return .array(elements.map(withoutDeclarations))
        default: return content
        }
    }
}
