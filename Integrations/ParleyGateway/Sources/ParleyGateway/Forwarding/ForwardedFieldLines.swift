/// The end-to-end field lines of an upstream's HTTP/1.1 response head, as the gateway forwards
/// them to an HTTP/1.1 client: each `name: value\r\n`, the name as received and the value's bytes
/// without the spaces around them, the hop-by-hop fields left out (``ForwardedFields/isHopByHop(_:)``).
///
/// ``UpstreamResponseDecoder`` writes them as it reads the head's fields, so that an answer passed
/// through is written from them (``HTTPTypesServerCodec``) with no `HTTPFields` copy of its
/// fields made and written back out: the bytes the same list's fields would be written as. A head
/// with a `Connection` field naming another field has none (those fields are not known to be
/// hop-by-hop until the whole head is read): it is forwarded from its `HTTPFields`.
struct ForwardedFieldLines {
    /// The lines, one after the other.
    private(set) var bytes: [UInt8] = []
    /// Where the `Content-Length` line is in `bytes`, if there is one: an answer without a body
    /// is written without it.
    private(set) var contentLength: Range<Int>?
    /// Whether a `Connection` field names `close`.
    var connectionCloses = false
    /// Whether a `Vary` field is among the lines.
    private(set) var hasVary = false

    /// Empties the lines for the next head, keeping their storage.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        contentLength = nil
        connectionCloses = false
        hasVary = false
    }

    /// Writes `name: value\r\n`, and notes the line's place when it is the `Content-Length`
    /// (`isContentLength`, which the decoder has worked out already).
    mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, isContentLength: Bool) {
        let start = bytes.count
        bytes.append(contentsOf: name)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: value)
        bytes.append(UInt8(ascii: "\r"))
        bytes.append(UInt8(ascii: "\n"))
        if isContentLength {
            contentLength = start..<bytes.count
        } else if name.count == 4, HTTP1Syntax.is(name, "vary") {
            hasVary = true
        }
    }

    /// Calls `body` with the bytes to write: all the lines, or all but the `Content-Length`.
    func withBytes(droppingContentLength: Bool, _ body: (UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes { lines in
            guard droppingContentLength, let contentLength else { return body(lines) }
            body(UnsafeRawBufferPointer(rebasing: lines[..<contentLength.lowerBound]))
            body(UnsafeRawBufferPointer(rebasing: lines[contentLength.upperBound...]))
        }
    }
}
