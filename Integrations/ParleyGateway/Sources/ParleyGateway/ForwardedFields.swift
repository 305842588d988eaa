import HTTPTypes

/// The header rules of a proxy (RFC 9110 §7.6): what crosses, what is dropped, what is added.
enum ForwardedFields {
    /// What the gateway adds to `Via` on requests and responses it forwards (§7.6.3).
    static let via = "1.1 parley-gateway"

    /// Fields that belong to one connection and never cross a proxy (RFC 9110 §7.6.1, with
    /// the older `Keep-Alive` and `Proxy-Connection`).
    static let hopByHop: [HTTPField.Name] = [
        .connection, keepAlive, proxyConnection, .te, .trailer, .transferEncoding, .upgrade, .proxyAuthenticate,
        .proxyAuthorization,
    ]
    static let keepAlive = HTTPField.Name("Keep-Alive")!
    static let proxyConnection = HTTPField.Name("Proxy-Connection")!

    /// Whether `name` is one of ``hopByHop``: compared only with those of its length, which most
    /// names have none of, rather than with all nine for each field copied.
    static func isHopByHop(_ name: HTTPField.Name) -> Bool {
        name.canonicalName.withUTF8Bytes { isHopByHop($0) }
    }

    /// Whether the field name whose bytes are `name` (in any case) is one of ``hopByHop``: the one
    /// rule, for a name read from a head's bytes as for an `HTTPField.Name`.
    static func isHopByHop(_ name: UnsafeRawBufferPointer) -> Bool {
        switch name.count {
        case 2: HTTP1Syntax.is(name, "te")
        case 7: HTTP1Syntax.is(name, "trailer") || HTTP1Syntax.is(name, "upgrade")
        case 10: HTTP1Syntax.is(name, "connection") || HTTP1Syntax.is(name, "keep-alive")
        case 16: HTTP1Syntax.is(name, "proxy-connection")
        case 17: HTTP1Syntax.is(name, "transfer-encoding")
        case 18: HTTP1Syntax.is(name, "proxy-authenticate")
        case 19: HTTP1Syntax.is(name, "proxy-authorization")
        default: false
        }
    }

    /// The fields the gateway adds after an answer's end-to-end fields when it passes the answer
    /// through: `Via`, `Vary: Accept` when the client's `Accept` chose it (the answer has no `Vary`
    /// of its own), `Connection: close` when the connection closes after it. Made once each.
    static func added(varyingOnAccept varies: Bool, closing closes: Bool) -> HTTPFields {
        addedFields[(varies ? 2 : 0) + (closes ? 1 : 0)]
    }

    private static let addedFields: [HTTPFields] = [false, true].flatMap { varies in
        [false, true].map { closes in
            var fields: HTTPFields = [:]
            fields.append(viaField)
            if varies { fields.append(HTTPField(name: .vary, value: "Accept")) }
            if closes { fields.append(HTTPField(name: .connection, value: "close")) }
            return fields
        }
    }

    /// `fields` without the hop-by-hop fields and those `Connection` names, with the gateway
    /// appended to `Via`.
    static func endToEnd(_ fields: HTTPFields) -> HTTPFields {
        var kept = HTTPFields()
        endToEnd(fields, into: &kept)
        return kept
    }

    /// ``endToEnd(_:)`` written into `kept`, whose fields it replaces: the storage of a list the
    /// caller no longer needs (its connection's last head) is refilled rather than a new one made.
    ///
    /// - Returns: Whether a `Connection` field names `close` (``connectionCloses(_:)``, read in the
    ///   same pass over the `Connection` fields).
    @discardableResult
    static func endToEnd(_ fields: HTTPFields, into kept: inout HTTPFields) -> Bool {
        // Room for the kept fields, Via and what an answer may get after them (`Vary`, `Connection`):
        // the storage grows once, not by doubling as fields are appended.
        kept.reserveCapacity(fields.count + 3)
        // Written over `kept`'s fields in place (a keep-alive connection's heads mostly repeat: a field
        // equal to the one it replaces is left as it is), appended past them, and what is left cut.
        var count = 0
        let closes = forEachEndToEnd(fields) { field in
            kept.write(field, at: count)
            count += 1
        }
        kept.write(viaField, at: count)
        kept.truncate(to: count + 1)
        return closes
    }

    /// Calls `body` with each field of `fields` that crosses the proxy, in order: all but the
    /// hop-by-hop fields and those a `Connection` field names (the rule of ``endToEnd(_:)``, which
    /// appends `Via` after them).
    ///
    /// - Returns: Whether a `Connection` field names `close`.
    @discardableResult
    static func forEachEndToEnd(_ fields: HTTPFields, _ body: (HTTPField) -> Void) -> Bool {
        // The other fields `Connection` names.
        var named: [HTTPField.Name] = []
        var closes = false
        forEachConnectionToken(of: fields) { token in
            // The token nearly every request sends names a hop-by-hop field: no name is made for it.
            if HTTP1Syntax.is(token, "keep-alive") { return }
            if HTTP1Syntax.is(token, "close") { closes = true }
            if let name = HTTPField.Name(String(decoding: token, as: UTF8.self)), !isHopByHop(name) {
                named.append(name)
            }
        }
        for field in fields where !isHopByHop(field.name) && !named.contains(field.name) { body(field) }
        return closes
    }

    /// The `Via` field the gateway appends, made once.
    static let viaField = HTTPField(name: .via, value: via)

    /// Whether a `Connection` field of `fields` names `close`.
    static func connectionCloses(_ fields: HTTPFields) -> Bool {
        var closes = false
        forEachConnectionToken(of: fields) { if HTTP1Syntax.is($0, "close") { closes = true } }
        return closes
    }

    /// Calls `body` with each token of each `Connection` field of `fields`, read from the value's
    /// bytes by ``HTTP1Syntax/forEachToken(_:_:)`` (no substrings: a byte past ASCII is never part
    /// of a token the gateway looks for, so any value reads as it would as text).
    static func forEachConnectionToken(of fields: HTTPFields, _ body: (UnsafeRawBufferPointer) -> Void) {
        for field in fields where field.name == .connection {
            field.withUnsafeBytesOfValue { HTTP1Syntax.forEachToken(UnsafeRawBufferPointer($0), body) }
        }
    }
}

extension HTTPFields {
    /// Writes `field` at `index`, over the field there (left as it is when it is the same, name
    /// case included: no retain or release), or appends it when `index` is the end: to refill a
    /// list in place.
    mutating func write(_ field: HTTPField, at index: Int) {
        guard index < count else { return append(field) }
        // Read once (each read is a copy); the same field, name case included, is not written at all.
        let current = self[index]
        if current == field {
            if current.name.rawName == field.name.rawName { return }
            // The setter keeps a field equal to the new one, and names are equal whatever their case:
            // one that differs only in its name's case (sent as written) is first replaced by another.
            self[index] = field.name == Self.placeholder.name ? Self.otherPlaceholder : Self.placeholder
        }
        self[index] = field
    }

    private static let placeholder = HTTPField(name: HTTPField.Name("X-Parley-Placeholder")!, value: "")
    private static let otherPlaceholder = HTTPField(name: HTTPField.Name("X-Parley-Placeholder-2")!, value: "")

    /// Cuts the fields from `count` on (a refilled list's leftovers).
    mutating func truncate(to count: Int) {
        if count < self.count { removeSubrange(count...) }
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
