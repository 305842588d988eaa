import Parley
import ParleySchema

/// A Schema Object (as a `Value`) with its `$ref`s followed, read for what shaping text needs:
/// its types, items, properties and `xml` object. `allOf`, `anyOf` and `oneOf` members add their
/// types and properties, so a composed schema still coerces its text.
struct SchemaNode: Sendable {
    /// The schema after following `$ref`s.
    let schema: Value
    /// The last path component of the last `$ref` followed (`Book` for `#/components/schemas/Book`).
    let referenceName: String?
    /// The first `xml` object met along the `$ref` chain: a 3.1 `xml` beside a `$ref` wins over
    /// the referenced schema's.
    let xmlObject: Value?
    let resolver: SchemaReferenceResolver
    /// ``types(subject:depth:)``, when a reader that keeps this node has read them once.
    var knownTypes: TypeSet?

    /// The most `$ref`s followed in a row before giving up (a cycle, or a runaway document).
    static let maxReferenceChain = 64
    /// How deep `allOf`/`anyOf`/`oneOf` are searched for types and properties.
    static let maxCompositionDepth = 8

    /// `schema` with its `$ref`s followed, or `nil` for no schema.
    static func resolve(_ schema: Value?, resolver: SchemaReferenceResolver,
                        subject: @autoclosure () -> String) throws(DeserializationError) -> SchemaNode? {
        guard var current = schema else { return nil }
        var name: String?
        var xmlObject = current["xml"]
        var hops = 0
        while case .string(let reference)? = current["$ref"] {
            hops += 1
            guard hops <= maxReferenceChain, let target = resolver.schema(for: reference) else {
                let message = hops > maxReferenceChain ? "too many $ref in a row" : "no schema at this $ref"
                throw DeserializationError(.unresolvedReference, subject: subject(), text: reference, message)
            }
            name = reference.split(separator: "/").last.map(String.init)
            current = target
            xmlObject = xmlObject ?? current["xml"]
        }
        return SchemaNode(schema: current, referenceName: name, xmlObject: xmlObject, resolver: resolver,
                          knownTypes: nil)
    }

    /// The node for a subschema of this one.
    func child(_ value: Value?, subject: @autoclosure () -> String) throws(DeserializationError) -> SchemaNode? {
        try Self.resolve(value, resolver: resolver, subject: subject())
    }

    /// The composed members (`allOf`, `anyOf`, `oneOf`), resolved.
    private func compositionMembers(subject: @autoclosure () -> String) throws(DeserializationError) -> [SchemaNode] {
        var members: [SchemaNode] = []
        for keyword in ["allOf", "anyOf", "oneOf"] {
            for member in schema[keyword]?.arrayValue ?? [] {
                if let node = try child(member, subject: subject()) { members.append(node) }
            }
        }
        return members
    }

    /// The JSON types the schema allows: `type` (a name or a list), `nullable: true` (3.0) adding
    /// null, else the types of its `const` or `enum` values, else the union of its composed
    /// members' types. Empty: any type.
    func types(subject: @autoclosure () -> String, depth: Int = 0) throws(DeserializationError) -> TypeSet {
        if depth == 0, let knownTypes { return knownTypes }
        var types = TypeSet()
        switch schema["type"] {
        case .string(let name)?: types.insert(TypeSet(name: name) ?? [])
        case .array(let names)?: for case .string(let name) in names { types.insert(TypeSet(name: name) ?? []) }
        default:
            for value in schema["enum"]?.arrayValue ?? schema["const"].map({ [$0] }) ?? [] {
                types.insert(TypeSet(of: value))
            }
            guard types.isEmpty, depth < Self.maxCompositionDepth else { break }
            for member in try compositionMembers(subject: subject()) {
                types.formUnion(try member.types(subject: subject(), depth: depth + 1))
            }
        }
        if !types.isEmpty, schema["nullable"]?.boolValue == true { types.insert(.null) }
        return types
    }

    /// What a serialized value of this schema is: an object, an array or a primitive.
    func kind(subject: @autoclosure () -> String) throws(DeserializationError) -> Kind {
        let types = try types(subject: subject())
        if types.contains(.array) { return .array }
        if types.contains(.object) { return .object }
        if types.isEmpty, !(try propertyNames(subject: subject())).isEmpty { return .object }
        if types.isEmpty, schema["items"] != nil { return .array }
        return .primitive
    }

    /// The kinds of value a serialization tells apart.
    enum Kind { case primitive, array, object }

    /// The `items` schema (of this schema or a composed member).
    func items(subject: @autoclosure () -> String, depth: Int = 0) throws(DeserializationError) -> SchemaNode? {
        if let items = schema["items"], items.objectValue != nil { return try child(items, subject: subject()) }
        guard depth < Self.maxCompositionDepth else { return nil }
        for member in try compositionMembers(subject: subject()) {
            if let items = try member.items(subject: subject(), depth: depth + 1) { return items }
        }
        return nil
    }

    /// The declared property names in order: this schema's, then its composed members' (once each).
    func propertyNames(subject: @autoclosure () -> String, depth: Int = 0) throws(DeserializationError) -> [String] {
        var names = schema["properties"]?.objectValue.map { $0.map(\.key) } ?? []
        guard depth < Self.maxCompositionDepth else { return names }
        for member in try compositionMembers(subject: subject()) {
            for name in try member.propertyNames(subject: subject(), depth: depth + 1) where !names.contains(name) {
                names.append(name)
            }
        }
        return names
    }

    /// The schema of property `name`: declared here, in a composed member, or `additionalProperties`.
    func property(_ name: String, subject: @autoclosure () -> String,
                  depth: Int = 0) throws(DeserializationError) -> SchemaNode? {
        if let declared = schema["properties"]?[name] { return try child(declared, subject: subject()) }
        if depth < Self.maxCompositionDepth {
            for member in try compositionMembers(subject: subject()) {
                if let found = try member.property(name, subject: subject(), depth: depth + 1) { return found }
            }
        }
        if let additional = schema["additionalProperties"], additional.objectValue != nil {
            return try child(additional, subject: subject())
        }
        return nil
    }

    /// The `xml` object's hints.
    var xml: XMLHints { XMLHints(xmlObject) }

    /// What a Schema Object's `xml` object says.
    struct XMLHints {
        var name: String?
        var namespace: String?
        var prefix: String?
        var isAttribute = false
        var isWrapped = false

        init(_ value: Value?) {
            name = value?["name"]?.stringValue
            namespace = value?["namespace"]?.stringValue
            prefix = value?["prefix"]?.stringValue
            isAttribute = value?["attribute"]?.boolValue ?? false
            isWrapped = value?["wrapped"]?.boolValue ?? false
        }
    }
}
