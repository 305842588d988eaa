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
/// - `Via`, then ``accept`` when no `Accept` came;
/// - the framing the gateway sets (``Framing``).
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

    /// Calls `body` with each field, in order.
    func forEach(_ body: (HTTPField) -> Void) {
        var placed = accept == nil
        ForwardedFields.forEachEndToEnd(admitted) { field in
            let name = field.name
            // Names of other lengths are none of the three: most fields take no comparison.
            switch name.canonicalName.utf8.count {
            case 6 where name == .accept:
                if !placed, let accept { body(accept) }
                placed = true
            case 6 where name == .expect, 14 where name == .contentLength:
                break
            default:
                body(field)
            }
        }
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
