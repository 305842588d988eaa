import HTTPTypes

/// The fields a forwarded request carries upstream, made by one rule from the client's fields as the
/// head policy admitted them: into a field list where one is needed (an h2c upstream, a recording,
/// a contract check, a transcoded request body), or for an HTTP/1.1 upstream straight into the
/// head's bytes (``UpstreamHTTP1Codec``), without the list.
///
/// In order:
/// - the end-to-end fields (``ForwardedFields/forEachEndToEnd(_:_:)``) but `Expect` and
///   `Content-Length`: the gateway answers `100-continue` and frames the body itself;
/// - ``accept`` in the place of the first `Accept` (no other `Accept` is sent);
/// - the proxy fields the head policy adds (``appended``);
/// - `Via`, then ``accept`` when no `Accept` came;
/// - the framing the gateway sets (``Framing``).
///
/// A request read over HTTP/1.1 may come with its ``clientLines``: the client's fields already
/// written as lines by the same rule, which the codec then writes in place of the admitted list's.
struct UpstreamFields {
    /// How the gateway frames the body it sends.
    enum Framing {
        /// Neither `Content-Length` nor `Transfer-Encoding`.
        case unframed
        /// `Content-Length` with this value.
        case length(String)
        /// `Transfer-Encoding: chunked` (an HTTP/1.1 upstream, a body of unknown length).
        case chunked
    }

    /// The client's fields as admitted.
    var admitted: HTTPFields
    /// The `Accept` the upstream gets (`nil`: none).
    var accept: HTTPField?
    var framing: Framing
    /// The proxy fields the head policy adds after the admitted ones
    /// (``RequestHeadPolicy/Admitted/appended``).
    var appended: RequestHeadPolicy.ForwardedElement?
    /// The admitted fields as the client's field lines (an HTTP/1.1 request whose fields the
    /// policy kept as they came), when known.
    var clientLines: ClientFieldLines?

    init(admitted: HTTPFields, appended: RequestHeadPolicy.ForwardedElement? = nil, accept: HTTPField?,
         framing: Framing, clientLines: ClientFieldLines? = nil) {
        self.admitted = admitted
        self.appended = appended
        self.accept = accept
        self.framing = framing
        self.clientLines = clientLines
    }

    /// What goes upstream of a client's field.
    enum Carriage {
        /// Nothing: a hop-by-hop field, `Expect` or `Content-Length`.
        case dropped
        /// `Accept`: the first one's place takes the upstream's ``accept``.
        case accept
        /// The field as it is.
        case kept
    }

    /// What goes upstream of a client's field named `name` (its bytes, in any case): the one rule
    /// for the admitted list and for ``ClientFieldLines``. (The fields a `Connection` names are
    /// dropped too: from the list by ``ForwardedFields/forEachEndToEnd(_:_:)``; a head that has
    /// any has no lines.)
    static func carriage(ofName name: UnsafeRawBufferPointer) -> Carriage {
        ForwardedFields.isHopByHop(name) ? .dropped : endToEndCarriage(ofName: name)
    }

    /// ``carriage(ofName:)`` of a field that is not hop-by-hop.
    private static func endToEndCarriage(ofName name: UnsafeRawBufferPointer) -> Carriage {
        // Names of other lengths are none of the three: most fields take no comparison.
        switch name.count {
        case 6 where HTTP1Syntax.is(name, "accept"): .accept
        case 6 where HTTP1Syntax.is(name, "expect"), 14 where HTTP1Syntax.is(name, "content-length"): .dropped
        default: .kept
        }
    }

    /// ``endToEndCarriage(ofName:)`` of a field of the list: its bytes are read only for a name of
    /// one of the three's lengths.
    private static func endToEndCarriage(of name: HTTPField.Name) -> Carriage {
        let canonical = name.canonicalName
        switch canonical.utf8.count {
        case 6, 14: return canonical.withUTF8Bytes(endToEndCarriage)
        default: return .kept
        }
    }

    /// Calls `body` with each field, in order.
    func forEach(_ body: (HTTPField) -> Void) {
        var placed = accept == nil
        ForwardedFields.forEachEndToEnd(admitted) { field in
            switch Self.endToEndCarriage(of: field.name) {
            case .accept:
                if !placed, let accept { body(accept) }
                placed = true
            case .dropped:
                break
            case .kept:
                body(field)
            }
        }
        appended?.fields.forEach(body)
        forEachAdded(acceptPlaced: placed, body)
    }

    /// Calls `body` with each field the gateway adds after the client's and ``appended``:
    /// `Via`, ``accept`` unless it took the place of a client's (`acceptPlaced`), the framing.
    func forEachAdded(acceptPlaced placed: Bool, _ body: (HTTPField) -> Void) {
        body(ForwardedFields.viaField)
        if !placed, let accept { body(accept) }
        switch framing {
        case .unframed: break
        case .length(let length): body(HTTPField(name: .contentLength, value: length))
        case .chunked: body(Self.chunked)
        }
    }

    /// Writes the fields into `fields`, whose own it replaces: the storage of a list the caller no
    /// longer needs (its connection's last upstream request's) is refilled rather than a new one made.
    func write(into fields: inout HTTPFields) {
        // Room for the client's fields and what the gateway adds: the storage grows once.
        fields.reserveCapacity(admitted.count + 3)
        var count = 0
        forEach { field in
            fields.write(field, at: count)
            count += 1
        }
        fields.truncate(to: count)
    }

    /// Whether the fields hold a `Content-Length`.
    var hasContentLength: Bool {
        if case .length = framing { true } else { false }
    }

    private static let chunked = HTTPField(name: .transferEncoding, value: "chunked")
}
