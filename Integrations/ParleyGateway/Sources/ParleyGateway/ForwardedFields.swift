import HTTPTypes

/// The header rules of a proxy (RFC 9110 §7.6): what crosses, what is dropped, what is added.
enum ForwardedFields {
    /// What the gateway adds to `Via` on requests and responses it forwards (§7.6.3).
    static let via = "1.1 parley-gateway"

    /// Fields that belong to one connection and never cross a proxy (RFC 9110 §7.6.1, with
    /// the older `Keep-Alive` and `Proxy-Connection`). A list: nine comparisons of short canonical
    /// names cost less than hashing a name for a set.
    static let hopByHop: [HTTPField.Name] = [
        .connection, HTTPField.Name("Keep-Alive")!, HTTPField.Name("Proxy-Connection")!, .te, .trailer,
        .transferEncoding, .upgrade, .proxyAuthenticate, .proxyAuthorization,
    ]

    /// The `Via` field the gateway appends, made once.
    private static let viaField = HTTPField(name: .via, value: via)

    /// `fields` without the hop-by-hop fields and those `Connection` names, with the gateway
    /// appended to `Via`.
    static func endToEnd(_ fields: HTTPFields) -> HTTPFields {
        // The other fields `Connection` names (`keep-alive` is hop-by-hop already: no list is made for it).
        var named: [HTTPField.Name] = []
        for field in fields where field.name == .connection {
            forEachToken(of: field.value) { token in
                if let name = HTTPField.Name(String(token)), !hopByHop.contains(name) { named.append(name) }
            }
        }
        var kept = HTTPFields()
        // Room for the kept fields, Via and what a forwarded request adds (its length or chunking and
        // Accept): the storage grows once, not by doubling as fields are appended.
        kept.reserveCapacity(fields.count + 3)
        // Appended in one call: HTTPFields appends through its generic replaceSubrange, once per call.
        // (The filter captures nothing, so the lazy collection needs no closure context.)
        kept.append(contentsOf: fields.lazy.filter { !hopByHop.contains($0.name) })
        if !named.isEmpty { kept.removeAll { named.contains($0.name) } }
        kept.append(viaField)
        return kept
    }

    /// Whether a `Connection` field of `fields` names `close`.
    static func connectionCloses(_ fields: HTTPFields) -> Bool {
        var closes = false
        for field in fields where field.name == .connection {
            forEachToken(of: field.value) { token in
                if !closes, token.utf8.elementsEqual("close".utf8, by: { $0 | 0x20 == $1 }) { closes = true }
            }
        }
        return closes
    }

    /// Calls `body` with each comma-separated token of a list field's `value`, its spaces and tabs
    /// trimmed, empty ones left out (walked in place: no array of tokens is made).
    static func forEachToken(of value: String, _ body: (Substring) -> Void) {
        var rest = value[...]
        while !rest.isEmpty {
            let comma = rest.firstIndex(of: ",") ?? rest.endIndex
            let token = rest[..<comma].trimmingCharacters(inSpacesAndTabs: ())
            if !token.isEmpty { body(token) }
            rest = comma == rest.endIndex ? rest[comma...] : rest[rest.index(after: comma)...]
        }
    }
}

extension HTTPFields {
    /// The values of the fields named `name` joined with `, ` (as the subscript reads them, but for
    /// `Cookie`), a single field's value as it is: the subscript joins even one, copying its value.
    func combinedValue(of name: HTTPField.Name) -> String? {
        var combined: String?
        for field in self where field.name == name {
            combined = combined.map { $0 + ", " + field.value } ?? field.value
        }
        return combined
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
