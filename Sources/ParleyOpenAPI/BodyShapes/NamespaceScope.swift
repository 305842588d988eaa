import Parley

/// The namespace prefixes in scope at an element, from the `@xmlns` and `@xmlns:p` members
/// `XMLFormat` keeps, for matching names against a schema's `xml.namespace`.
struct NamespaceScope {
    /// Namespace URIs by prefix; `""` is the default namespace.
    private var bindings: [String: String] = [:]

    /// The scope inside an element whose decoded content is `content`.
    func entering(_ content: Value) -> NamespaceScope {
        guard case .object(let members) = content else { return self }
        var scope = self
        for member in members {
            guard let uri = member.value.stringValue else { continue }
            if member.key == "@xmlns" {
                scope.bindings[""] = uri
            } else if member.key.hasPrefix("@xmlns:") {
                scope.bindings[String(member.key.dropFirst(7))] = uri
            }
        }
        return scope
    }

    /// Whether the qualified name `key` (`prefix:local` or `local`) is the name the schema asks
    /// for: the local name `name`, in `hints.namespace` when given (an unprefixed attribute is in
    /// no namespace), else with `hints.prefix` when given, else with any prefix.
    func matches(_ key: String, name: String, hints: SchemaNode.XMLHints, isAttribute: Bool) -> Bool {
        let colon = key.firstIndex(of: ":")
        let prefix = colon.map { String(key[..<$0]) }
        let local = colon.map { String(key[key.index(after: $0)...]) } ?? key
        guard local == name else { return false }
        if let namespace = hints.namespace {
            if let prefix { return bindings[prefix] == namespace }
            return !isAttribute && bindings[""] == namespace
        }
        if let expected = hints.prefix { return prefix == expected }
        return true
    }
}
