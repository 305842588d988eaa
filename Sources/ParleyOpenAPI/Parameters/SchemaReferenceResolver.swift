public import Parley

/// Finds the Schema Object a `$ref` names, so a schema given as a `Value` can be followed into
/// `#/components/schemas` (or wherever the loaded document keeps it).
public struct SchemaReferenceResolver: Sendable {
    private let resolve: @Sendable (String) -> Value?

    /// Creates a resolver that asks `resolve` for the schema a `$ref` value names (`nil`: unknown).
    public init(_ resolve: @escaping @Sendable (String) -> Value?) {
        self.resolve = resolve
    }

    /// Creates a resolver for references local to `document` (`#/components/schemas/Book`), read
    /// as JSON Pointers (RFC 6901, with `~0`, `~1` and percent-escapes).
    public init(document: Value) {
        self.init { reference in
            guard reference.hasPrefix("#") else { return nil }
            let pointer = PercentEscaping.unescape(Array(reference.utf8.dropFirst()), plusAsSpace: false)
            var current = document
            for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
                let key = JSONPointerToken.unescaped(token)
                if let member = current[key] {
                    current = member
                } else if let index = Int(key), let element = current[index] {
                    current = element
                } else {
                    return nil
                }
            }
            return current
        }
    }

    /// A resolver that knows no references.
    public static let none = SchemaReferenceResolver { _ in nil }

    /// The schema `reference` names, or `nil`.
    public func schema(for reference: String) -> Value? {
        resolve(reference)
    }
}
