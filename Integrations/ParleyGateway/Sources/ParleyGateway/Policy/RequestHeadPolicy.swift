import HTTPTypes

/// What the gateway admits of a request head, and how it rewrites an admitted one before it is
/// routed and forwarded. Called for every head, before any answer starts (``RequestHeadGuard``).
///
/// Refused (the connection is then closed):
/// - `CONNECT` and `TRACE`: 405, with `Allow` (the gateway tunnels nothing and does not echo heads);
/// - no `Host`, or more than one: 400 (RFC 9112 §3.2);
/// - a path that cannot be normalised safely: 400 (``RequestTarget``).
///
/// Rewritten:
/// - the path normalised (``RequestTarget``);
/// - fields whose names hold `_` dropped (a CGI-style upstream reads `X_User` as `X-User`);
/// - `Connection` read as a list: the fields it names are dropped (never the framing fields
///   `Content-Length` and `Transfer-Encoding`), and what stays of it is `close` or `keep-alive`:
///   `close` also when it names `upgrade`, as NIO's HTTP/1.1 decoder reads nothing past a request
///   asking for an upgrade (one the gateway does not take is answered over HTTP/1.1, RFC 9110 §7.8);
/// - `Forwarded` (RFC 7239), `X-Forwarded-For`, `-Host`, `-Proto` and `X-Real-IP` from a client
///   that is not a trusted proxy dropped; the client's address appended to `Forwarded`
///   (`for=`, with `host=` and `proto=`) and `X-Forwarded-For`.
struct RequestHeadPolicy: Sendable {
    /// A head the gateway answers itself, with the status and why.
    struct Refusal: Error, Equatable, Sendable {
        var status: HTTPResponse.Status
        var detail: String
        /// Extra fields of the answer (`Allow` for 405).
        var fields: HTTPFields = [:]
    }

    /// Peers whose `Forwarded` and `X-Forwarded-*` fields are kept (and added to).
    var trustedProxies: [AddressRange] = []

    /// The methods a 405 names.
    static let allowedMethods = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"

    static let forwarded = HTTPField.Name("Forwarded")!
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let xForwardedHost = HTTPField.Name("X-Forwarded-Host")!
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
    static let xRealIP = HTTPField.Name("X-Real-IP")!
    static let host = HTTPField.Name("Host")!

    /// The `Forwarded` element the gateway appends for a client and host: a connection keeps its
    /// last one for its next request, which comes from the same client and mostly names the same host.
    /// A class: made once, it is passed on with each request by one reference.
    final class ForwardedElement: Sendable {
        let client: String
        let host: String
        /// The four proxy fields an untrusted client's request gets: `Forwarded` with the element,
        /// `X-Forwarded-For`, `-Host` and `-Proto`.
        let fields: [HTTPField]
        /// The four as HTTP/1.1 field lines (`name: value\r\n`), which the upstream codec writes
        /// after a head's ``ClientFieldLines``.
        let lines: [UInt8]
        /// Whether their values pass NIO's request validator (``HTTP1Syntax/areValueBytes(_:)``).
        let valuesAreValid: Bool

        init(client: String, host: String) {
            self.client = client
            self.host = host
            fields = [
                HTTPField(name: RequestHeadPolicy.forwarded,
                          value: RequestHeadPolicy.forwardedElement(client: client, host: host)),
                HTTPField(name: RequestHeadPolicy.xForwardedFor, value: client),
                HTTPField(name: RequestHeadPolicy.xForwardedHost, value: host),
                HTTPField(name: RequestHeadPolicy.xForwardedProto, value: "http"),
            ]
            var lines: [UInt8] = []
            var valuesAreValid = true
            for field in fields {
                field.name.rawName.withUTF8Bytes { name in
                    field.withUnsafeBytesOfValue { value in
                        lines.appendFieldLine(name: name, value: UnsafeRawBufferPointer(value))
                        valuesAreValid = valuesAreValid && HTTP1Syntax.areValueBytes(UnsafeRawBufferPointer(value))
                    }
                }
            }
            self.lines = lines
            self.valuesAreValid = valuesAreValid
        }
    }

    /// What a connection keeps of its last admitted head for the next one.
    struct LastHead: Sendable {
        /// The `Forwarded` element appended to it.
        var forwarded: ForwardedElement?
        /// The fields of the last head whose fields were changed: their storage takes the next
        /// changed head's once its exchange let them go.
        var fields = HTTPFields()
    }

    /// A head as the policy admitted it, and the proxy fields that go upstream after its fields.
    struct Admitted {
        var head: HTTPRequest
        /// `Forwarded` and `X-Forwarded-*` for the client, which go upstream after the head's own
        /// fields (``UpstreamFields``): kept apart, so that a head whose fields the policy keeps as
        /// they came is not copied to add them. `nil` when the client's address is not known, or
        /// when a trusted proxy's own proxy fields were added to in place.
        var appended: ForwardedElement?
    }

    /// `head`, from the peer at `client` (an IP address, when known), as the gateway routes and
    /// forwards it (the proxy fields among its fields), or the answer that refuses it.
    func admit(_ head: HTTPRequest, from client: String?) throws(Refusal) -> HTTPRequest {
        var last = LastHead()
        var lines: ClientFieldLines?
        var admitted = try admit(head, from: client, last: &last, lines: &lines)
        if let appended = admitted.appended { admitted.head.headerFields.append(contentsOf: appended.fields) }
        return admitted.head
    }

    /// ``admit(_:from:)`` with the proxy fields kept apart, which writes fields it changes over
    /// `last`'s, reuses its `Forwarded` element when it was made for the same client and host, and
    /// leaves the admitted head's there. The head's field `lines` (``ClientFieldLines``, HTTP/1.1)
    /// are dropped when the admitted fields are not the client's as they came.
    func admit(_ head: HTTPRequest, from client: String?, last: inout LastHead,
               lines: inout ClientFieldLines?) throws(Refusal) -> Admitted {
        var head = head
        if head.method == .connect || head.method == .trace {
            throw Refusal(status: .methodNotAllowed, detail: "the gateway does not answer \(head.method.rawValue)",
                          fields: [.allow: Self.allowedMethods])
        }
        if head.headerFields[Self.host] != nil {
            throw Refusal(status: .badRequest, detail: "the request has more than one Host field")
        }
        guard let authority = head.authority, !authority.isEmpty else {
            throw Refusal(status: .badRequest, detail: "the request has no Host field")
        }
        if let path = head.path {
            let normalized: String
            do { normalized = try RequestTarget.normalized(path) } catch {
                throw Refusal(status: .badRequest, detail: error.reason)
            }
            if normalized != path { head.path = normalized }   // setting copies the head's pseudo-fields
        }
        // The fields `Connection` names go first; those whose names hold `_` are dropped with the
        // proxy fields, or on their own when the client's address is not known.
        var fields = head.headerFields
        var changed = false
        if let (applied, droppedNamed) = Self.applyingConnection(fields) {
            fields = applied
            changed = true
            // `Connection` is not among the lines: only a field it names changes them.
            if droppedNamed { lines = nil }
        }
        var appended: ForwardedElement?
        if let client {
            let forwarded = forwarding(fields, client: client, host: authority, last: &last)
            if let kept = forwarded.changedFields {
                fields = kept
                changed = true
                lines = nil
            }
            appended = forwarded.appended
        } else if fields.contains(where: { Self.hasUnderscore($0.name) }) {
            fields = HTTPFields(fields.filter { !Self.hasUnderscore($0.name) })
            changed = true
            lines = nil
        }
        if changed {
            head.headerFields = fields
            last.fields = fields
        }
        return Admitted(head: head, appended: appended)
    }

    /// `fields` without the fields their `Connection` tokens name, and `Connection` itself only
    /// `close` (when it names `close` or `upgrade`) or `keep-alive`. Its tokens are read by
    /// ``ForwardedFields/forEachConnectionToken(of:_:)``, as the proxy's other `Connection` rules
    /// read them; a `Connection` of only commas and spaces names nothing and is dropped like any
    /// other.
    ///
    /// - Returns: `nil` when there is no `Connection`; else the fields, and whether a field other
    ///   than `Connection` was dropped (a field whose name holds `_` is dropped later).
    private static func applyingConnection(_ fields: HTTPFields) -> (HTTPFields, droppedNamed: Bool)? {
        guard fields.contains(.connection) else { return nil }
        var named: Set<HTTPField.Name> = []
        var closes = false
        var keepsAlive = false
        ForwardedFields.forEachConnectionToken(of: fields) { token in
            if HTTP1Syntax.is(token, "close") || HTTP1Syntax.is(token, "upgrade") { closes = true }
            if HTTP1Syntax.is(token, "keep-alive") { keepsAlive = true }
            if let name = HTTPField.Name(String(decoding: token, as: UTF8.self)) { named.insert(name) }
        }
        named.subtract([.contentLength, .transferEncoding, .connection])
        var kept = HTTPFields(fields.filter { !named.contains($0.name) && $0.name != .connection })
        let droppedNamed = fields.contains { named.contains($0.name) }
        if closes {
            kept[.connection] = "close"
        } else if keepsAlive {
            kept[.connection] = "keep-alive"
        }
        return (kept, droppedNamed)
    }

    /// The proxy fields for `client`, and `incoming` changed when it must be: with the proxy fields
    /// of an untrusted client and the fields whose names hold `_` dropped, written over the storage
    /// of `last`'s fields (the client's own are shared with the decoder's head), or with a trusted
    /// proxy's proxy fields added to in place.
    ///
    /// - Returns: The changed fields (`nil`: `incoming` as it is), and the element to append
    ///   after them (`nil` when a trusted proxy's fields were added to).
    private func forwarding(_ incoming: HTTPFields, client: String, host: String, last: inout LastHead)
        -> (changedFields: HTTPFields?, appended: ForwardedElement?) {
        let element: ForwardedElement
        if let cached = last.forwarded, cached.client == client, cached.host == host {
            element = cached
        } else {
            element = ForwardedElement(client: client, host: host)
            last.forwarded = element
        }
        // Most heads have neither: their fields go as they came.
        guard incoming.contains(where: { Self.hasUnderscore($0.name) || Self.isProxyField($0.name) }) else {
            return (nil, element)
        }
        let trusted = trustedProxies.contains { $0.contains(client) }
        var hasProxyFields = false
        var fields = HTTPFields()
        swap(&fields, &last.fields)
        fields.reserveCapacity(incoming.count + 4)   // the fields a trusted proxy's get, in one growth
        var count = 0
        // One pass: each read of a list's field is a copy.
        for field in incoming where !Self.hasUnderscore(field.name) {
            if Self.isProxyField(field.name) {
                hasProxyFields = true
                guard trusted else { continue }
            }
            fields.write(field, at: count)
            count += 1
        }
        fields.truncate(to: count)
        guard trusted, hasProxyFields else { return (fields, element) }
        // A trusted proxy's fields are added to.
        fields.append(element.fields[0])
        let earlier = fields[values: Self.xForwardedFor]
        fields[Self.xForwardedFor] = earlier.isEmpty ? client : (earlier + [client]).joined(separator: ", ")
        if fields[Self.xForwardedHost] == nil { fields[Self.xForwardedHost] = host }
        if fields[Self.xForwardedProto] == nil { fields[Self.xForwardedProto] = "http" }
        return (fields, nil)
    }

    /// Whether `name` holds `_`: a field the gateway drops.
    private static func hasUnderscore(_ name: HTTPField.Name) -> Bool {
        name.rawName.utf8.contains(UInt8(ascii: "_"))
    }

    /// Whether `name` is one of the fields only a trusted proxy may send (`Forwarded`, `X-Forwarded-For`,
    /// `-Host`, `-Proto`, `X-Real-IP`): compared only with those of its length.
    private static func isProxyField(_ name: HTTPField.Name) -> Bool {
        switch name.canonicalName.utf8.count {
        case 9: name == forwarded || name == xRealIP
        case 15: name == xForwardedFor
        case 16: name == xForwardedHost
        case 17: name == xForwardedProto
        default: false
        }
    }

    /// `for=node;host="host";proto=http` (RFC 7239 §4), built in storage reserved once.
    private static func forwardedElement(client: String, host: String) -> String {
        let isIPv6 = client.utf8.contains(UInt8(ascii: ":"))
        let quotedHost = host.replacingBackslashAndQuote()
        var forwarded = "for="
        forwarded.reserveCapacity(client.utf8.count + quotedHost.utf8.count + 30)
        forwarded += isIPv6 ? "\"[" : ""
        forwarded += client
        forwarded += isIPv6 ? "]\"" : ""
        forwarded += ";host=\""
        forwarded += quotedHost
        forwarded += "\";proto=http"
        return forwarded
    }
}

extension String {
    /// The text with `\` and `"` escaped, for a quoted-string (RFC 9110 §5.6.4).
    fileprivate func replacingBackslashAndQuote() -> String {
        guard utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return self }
        var escaped = ""
        for character in self {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
