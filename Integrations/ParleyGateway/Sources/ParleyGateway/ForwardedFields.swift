import HTTPTypes

/// The header rules of a proxy (RFC 9110 §7.6): what crosses, what is dropped, what is added.
enum ForwardedFields {
    /// What the gateway adds to `Via` on requests and responses it forwards (§7.6.3).
    static let via = "1.1 parley-gateway"

    /// Fields that belong to one connection and never cross a proxy (RFC 9110 §7.6.1, with
    /// the older `Keep-Alive` and `Proxy-Connection`).
    static let hopByHop: Set<HTTPField.Name> = [
        .connection, HTTPField.Name("Keep-Alive")!, HTTPField.Name("Proxy-Connection")!, .te, .trailer,
        .transferEncoding, .upgrade, .proxyAuthenticate, .proxyAuthorization,
    ]

    /// `fields` without the hop-by-hop fields and those `Connection` names, with the gateway
    /// appended to `Via`.
    static func endToEnd(_ fields: HTTPFields) -> HTTPFields {
        var named = hopByHop
        for value in fields[values: .connection] {
            for token in value.split(separator: ",") {
                if let name = HTTPField.Name(String(token.trimmingCharacters(inSpacesAndTabs: ()))) {
                    named.insert(name)
                }
            }
        }
        var kept = HTTPFields()
        // Room for the kept fields, Via and what a forwarded request adds (its length or chunking and
        // Accept): the storage grows once, not by doubling as fields are appended.
        kept.reserveCapacity(fields.count + 3)
        for field in fields where !named.contains(field.name) { kept.append(field) }
        kept.append(HTTPField(name: .via, value: via))
        return kept
    }
}

extension Substring {
    func trimmingCharacters(inSpacesAndTabs: ()) -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
