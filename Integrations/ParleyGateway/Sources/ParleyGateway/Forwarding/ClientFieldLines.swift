/// The field lines of a client's HTTP/1.1 request head as they go upstream: each `name: value\r\n`,
/// the name as received and the value's bytes without the spaces around them, in the order they
/// came, with the fields ``UpstreamFields`` does not carry left out (by
/// ``UpstreamFields/carriage(ofName:)``, the rule the field list is written by) and every `Accept`
/// left out, the place of the first kept for the upstream's own.
///
/// ``ClientRequestDecoder`` writes them as it reads the head's fields (the first `Host`, the
/// authority, is not among them), so that a request the gateway forwards is written upstream from
/// them (``UpstreamHTTP1Codec``) rather than from its `HTTPFields` one field at a time: the bytes the
/// admitted list's fields would be written as. They stand for a head only when the head policy
/// admits its fields as they came (its proxy fields go after them, ``UpstreamFields/appended``);
/// it drops them otherwise (``RequestHeadPolicy/admit(_:from:last:lines:)``). A head with more
/// than one `Cookie` has none: its cookies go upstream joined into one field.
struct ClientFieldLines {
    /// The lines, one after the other.
    private(set) var bytes: [UInt8] = []
    /// Where in `bytes` the first `Accept` line was, if one came.
    private(set) var acceptOffset: Int?
    /// How many `Cookie` lines came.
    private(set) var cookieCount = 0

    /// Empties the lines for the next head, keeping their storage.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        acceptOffset = nil
        cookieCount = 0
    }

    /// Writes `name: value\r\n` when the field goes upstream, or notes the first `Accept`'s place.
    mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        switch UpstreamFields.carriage(ofName: name) {
        case .dropped:
            return
        case .accept:
            if acceptOffset == nil { acceptOffset = bytes.count }
            return
        case .kept:
            break
        }
        if name.count == 6, HTTP1Syntax.is(name, "cookie") { cookieCount += 1 }
        bytes.appendFieldLine(name: name, value: value)
    }

    /// Writes the lines, calling `accept` where the first `Accept` was.
    func write(into head: inout HeadWriter, accept: (inout HeadWriter) -> Void) {
        bytes.withUnsafeBytes { lines in
            let split = acceptOffset ?? lines.count
            head.write(UnsafeRawBufferPointer(rebasing: lines[..<split]))
            if acceptOffset != nil { accept(&head) }
            head.write(UnsafeRawBufferPointer(rebasing: lines[split...]))
        }
    }
}
