import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Decodes an HTTP/1.1 upstream's responses from the bytes that arrive, straight into HTTP types
/// parts: what NIO's `HTTPResponseDecoder` (strict llhttp, informational answers dropped) and the
/// extras' conversion to HTTP types produce, without NIO's head, its field list and their copies.
///
/// Framing is as strict as llhttp's: lines end in CRLF (a bare LF or CR is an error), field names
/// are tokens, values hold no control character but tab (no NUL), obs-fold is refused, a
/// `Content-Length` must be digits, once, and not with `Transfer-Encoding`; `chunked` frames the
/// body when it is the last transfer coding, any other coding reads it until the connection closes.
/// Chunk sizes are hex, their extensions `;name[=token|"quoted"]`, trailers are fields. No body
/// follows a `1xx`, `204` or `304`, nor the answer to `HEAD` or `CONNECT`; a `1xx` but `101` is
/// dropped (the final answer follows), a `101` ends decoding. A head's field names and values
/// hold at most ``maxFieldBytes`` bytes (trailers count too), an unfinished line as much.
/// Where it is stricter than llhttp (other protocols than `HTTP/1.0` and `HTTP/1.1`, control
/// characters in the reason phrase, an unfinished chunk-size line over the limit), it refuses.
///
/// The decoder is given bytes with ``receive(_:)`` and hands out one part at a time with
/// ``next()``, so that its owner passes each on outside any access to it (a handler further on may
/// close the channel while it reads one).
struct UpstreamResponseDecoder {
    /// What a request's method says of its answer's body.
    enum Request {
        /// `HEAD` or `CONNECT`: the answer has no body.
        case bodyless
        /// Any other method.
        case other
    }

    /// The most bytes of field names and values in a head and its trailers (NIO's default limit).
    static let maxFieldBytes = 80 * 1024
    /// The most fields in a head and its trailers (NIO's default limit).
    static let maxFieldCount = Int(UInt16.max) - 1

    private enum State {
        /// Reading a head: its status line (once `head.status` is set, its fields).
        case head
        /// Reading a body framed by its length or by chunks.
        case body(HTTP1Body)
        /// Reading a body that ends when the connection closes.
        case untilClose
        /// The last response does not keep the connection open: only CR and LF may follow.
        case closed
        /// After a `101` or an error: every byte is dropped.
        case stopped
    }

    /// What is known of the head (or trailers) being read.
    private struct Head {
        var status: Int?
        var minorVersion = 1
        var fields = HTTPFields()
        /// How many of `fields` are this head's: a refilled list's first ones (the rest is cut at its end).
        var written = 0
        var fieldBytes = 0
        var fieldCount = 0
        var contentLength: Int?
        var hasTransferEncoding = false
        var isChunked = false
        var closes = false
        var keepsAlive = false
        /// Whether a `Host` field was dropped (the extras' conversion drops the first).
        var droppedHost = false
        /// Whether a trailer line came.
        var hasTrailers = false
    }

    private var state = State.head
    private var head = Head()
    /// The fields of the connection's last final head: a field the next head repeats at the same
    /// place (an upstream sends the same fields to each request) is that field again, not new strings.
    private var previousFields = HTTPFields()
    /// The connection's last final head.
    private var previousResponse: HTTPResponse?
    /// The fields of the final head before the last: the next head's fields are written into
    /// their storage (once the exchange that had them let them go, no other holds it).
    private var spareFields: HTTPFields?
    /// The requests sent and not answered yet, oldest first, each with whether its answer's field
    /// lines are written (``fieldLines``).
    private var requests = CircularBuffer<(request: Request, writesLines: Bool)>(initialCapacity: 2)
    /// The bytes received and not decoded yet.
    private var input = HTTP1Input()
    /// A part decoded along with the one returned last (a head's end when it has no body).
    private var pendingEnd = false
    /// The end-to-end field lines of the head being read, written as its fields are read; their
    /// storage is refilled from one head to the next.
    private var lines = ForwardedFieldLines()
    /// Whether `lines` stand for the head being read: no `Connection` field names another field.
    private var linesForwardable = true
    /// Whether `lines` are the last final head's, and stand for it.
    private var linesAreLastHeads = false

    /// The end-to-end field lines of the last final head, when they stand for it: read when its
    /// part is handed out, before the next head is decoded.
    var fieldLines: ForwardedFieldLines? { linesAreLastHeads ? lines : nil }

    init() {}

    /// Notes a request sent on the connection: its answer comes after those of the requests before it.
    /// Its answer's field lines are written when `writingFieldLines` (an exchange that does not
    /// read them does not pay for them).
    mutating func expectResponse(to request: Request, writingFieldLines: Bool = true) {
        requests.append((request, writingFieldLines))
    }

    /// Takes bytes from the connection.
    mutating func receive(_ bytes: ByteBuffer) {
        input.receive(bytes)
    }

    /// The next part decoded from the bytes received, or `nil` when more bytes are needed.
    mutating func next() throws -> HTTPResponsePart? {
        if pendingEnd {
            pendingEnd = false
            return .end(nil)
        }
        do {
            return try decode()
        } catch {
            state = .stopped
            input.dropAll()
            throw error
        }
    }

    /// The part that the connection's end completes (a body read until then ends), or `nil`;
    /// throws when it cuts a response short.
    mutating func finish() throws -> HTTPResponsePart? {
        switch state {
        case .head:
            guard head.status == nil, input.readableBytes == 0 else { break }
            return nil
        case .untilClose:
            state = .closed
            return .end(nil)
        case .closed, .stopped:
            return nil
        case .body:
            break
        }
        state = .stopped
        throw HTTPParserError.invalidEOFState
    }

    private mutating func decode() throws -> HTTPResponsePart? {
        while true {
            switch state {
            case .head:
                if head.status == nil { input.skipEmptyLines() }
                guard let line = try input.readLine(limit: headLineLimit) else {
                    if head.status == nil { try checkStatusLineStart() }
                    return nil
                }
                if head.status == nil {
                    try readStatusLine(line)
                } else if line.readableBytes > 0 {
                    try readField(line, trailer: false)
                } else if let part = try headEnded() {
                    return part
                }
            case .body(var body):
                let event = try body.read(from: &input, chunkLineLimit: Self.maxFieldBytes,
                                          trailerLineLimit: headLineLimit)
                state = .body(body)
                switch event {
                case nil:
                    return nil
                case .data(let bytes):
                    return .body(bytes)
                case .lastData(let bytes):
                    messageEnded()
                    pendingEnd = true
                    return .body(bytes)
                case .trailer(let line):
                    try readField(line, trailer: true)
                case .trailersEnded:
                    let trailers = head.hasTrailers ? head.fields : nil
                    messageEnded()
                    return .end(trailers)
                }
            case .untilClose:
                guard let bytes = input.readBytes(upTo: .max) else { return nil }
                return .body(bytes)
            case .closed:
                input.skipEmptyLines()
                guard input.readableBytes == 0 else { throw HTTPParserError.closedConnection }
                return nil
            case .stopped:
                input.dropAll()
                return nil
            }
        }
    }

    /// Refuses the start of a status line that is not `HTTP/1.` as soon as it arrives.
    private func checkStatusLineStart() throws {
        let start = "HTTP/1.".utf8
        let count = min(input.readableBytes, start.count)
        guard input.readableBytesView.prefix(count).elementsEqual(start.prefix(count)) else {
            throw HTTPParserError.invalidConstant
        }
    }

    /// How long an unfinished line of a head or trailers may grow: the start line, or a field's
    /// name, colon, spaces and value, within what the field limit leaves.
    private var headLineLimit: Int { Self.maxFieldBytes - head.fieldBytes + 64 }

    /// Reads `HTTP/1.x SP 3DIGIT [SP reason]`.
    private mutating func readStatusLine(_ line: ByteBuffer) throws {
        let (minor, status) = try line.withUnsafeReadableBytes { bytes throws -> (Int, Int) in
            guard bytes.count >= 12, bytes.starts(with: "HTTP/1.".utf8) else {
                throw bytes.starts(with: "HTTP/".utf8) ? HTTPParserError.invalidVersion : .invalidConstant
            }
            let minor = bytes[7]
            guard minor == UInt8(ascii: "0") || minor == UInt8(ascii: "1") else { throw HTTPParserError.invalidVersion }
            guard bytes[8] == UInt8(ascii: " ") else { throw HTTPParserError.invalidVersion }
            var status = 0
            for index in 9..<12 {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { throw HTTPParserError.invalidStatus }
                status = status * 10 + Int(digit)
            }
            if bytes.count > 12 {
                guard bytes[12] == UInt8(ascii: " "),
                      bytes[13...].allSatisfy({ HTTP1Syntax.isValueByte($0) })
                else { throw HTTPParserError.invalidStatus }
            }
            return (Int(minor - UInt8(ascii: "0")), status)
        }
        head.minorVersion = minor
        head.status = status
        lines.removeAll()
        linesForwardable = requests.first?.writesLines ?? false
        linesAreLastHeads = false
        // Written over in place (emptying it first would go through HTTPFields' unspecialised
        // replaceSubrange, which costs more than the allocation it saves).
        if let spare = spareFields.take() { head.fields = spare }
        head.fields.reserveCapacity(max(previousFields.count, 8))
    }

    /// Reads a field line (``HTTP1Syntax/withField(_:_:)``) with the framing fields' rules.
    private mutating func readField(_ line: ByteBuffer, trailer: Bool) throws {
        try HTTP1Syntax.withField(line) { name, value in try addField(name: name, value: value, trailer: trailer) }
    }

    /// Counts a field against the limits, applies its framing rules, and keeps it.
    private mutating func addField(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer,
                                   trailer: Bool) throws {
        head.fieldCount += 1
        head.fieldBytes += name.count + value.count
        guard head.fieldCount <= Self.maxFieldCount, head.fieldBytes <= Self.maxFieldBytes else {
            throw HTTPParserError.headerOverflow
        }
        if trailer { head.hasTrailers = true }
        let isContentLength = HTTP1Syntax.is(name, "content-length")
        if isContentLength {
            guard head.contentLength == nil, !value.isEmpty else { throw HTTPParserError.unexpectedContentLength }
            guard !head.hasTransferEncoding else { throw HTTPParserError.unexpectedContentLength }
            head.contentLength = try HTTP1Syntax.contentLength(value)
        } else if HTTP1Syntax.is(name, "transfer-encoding") {
            guard head.contentLength == nil else { throw HTTPParserError.unexpectedContentLength }
            head.hasTransferEncoding = true
            // Chunked when its last coding is `chunked`, over every Transfer-Encoding field.
            var isChunked = head.isChunked
            HTTP1Syntax.forEachToken(value) { isChunked = HTTP1Syntax.is($0, "chunked") }
            head.isChunked = isChunked
        } else if HTTP1Syntax.is(name, "connection") {
            HTTP1Syntax.forEachToken(value) { token in
                if HTTP1Syntax.is(token, "close") {
                    head.closes = true
                } else if HTTP1Syntax.is(token, "keep-alive") {
                    head.keepsAlive = true
                } else if !trailer {
                    // A field it names is hop-by-hop, and may have come already.
                    linesForwardable = false
                }
            }
        } else if !head.droppedHost, HTTP1Syntax.is(name, "host") {
            head.droppedHost = true
            return
        }
        if !trailer, linesForwardable, !ForwardedFields.isHopByHop(name) {
            lines.append(name: name, value: value, isContentLength: isContentLength)
        }
        let position = head.written
        head.written += 1
        if !trailer, position < previousFields.count {
            // Read once: each read of a list's field is a copy.
            let previous = previousFields[position]
            if HTTP1Syntax.is(previous, name: name, value: value) {
                head.fields.write(previous, at: position)
                return
            }
        }
        // The value's bytes as received: text when they are UTF-8 (the decoder let no CR, LF or NUL through).
        let field = HTTPField(name: HTTPField.Name(String(decoding: name, as: UTF8.self))!, lenientValue: value)
        head.fields.write(field, at: position)
    }

    /// The head is whole: its part (or, for an informational answer, nothing: decoding goes on).
    private mutating func headEnded() throws -> HTTPResponsePart? {
        guard let status = head.status else { throw HTTPParserError.invalidInternalState }
        guard let request = requests.first?.request else { throw NIOHTTPDecoderError.unsolicitedResponse }
        if (100..<200).contains(status), status != 101 {
            // Dropped, as NIO's decoder drops it; the request waits for its final answer.
            messageEnded()
            return nil
        }
        requests.removeFirst()
        lines.connectionCloses = head.closes
        linesAreLastHeads = linesForwardable
        head.fields.truncate(to: head.written)
        spareFields = previousFields
        previousFields = head.fields
        // NIO's reason phrase for the codes it knows, none for others (its decoder drops the upstream's).
        let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
        // The last head again, changed: its storage is reused once the exchange that had it let it go.
        var response = previousResponse.take() ?? HTTPResponse(status: .ok)
        response.status = HTTPResponse.Status(code: status, reasonPhrase: reason)
        response.headerFields = head.fields
        previousResponse = response
        if status == 101 {
            state = .stopped
            pendingEnd = true
        } else if request == .bodyless || status == 204 || status == 304 {
            messageEnded()
            pendingEnd = true
        } else if head.isChunked {
            state = .body(.chunkSize)
            // The trailers are a field list of their own (the framing flags stay).
            head.fields = HTTPFields()
            head.written = 0
            head.droppedHost = false
        } else if head.hasTransferEncoding || head.contentLength == nil {
            state = .untilClose
        } else if head.contentLength == 0 {
            messageEnded()
            pendingEnd = true
        } else {
            state = .body(.fixed(head.contentLength!))
        }
        return .head(response)
    }

    /// A response ended: the next head, or nothing more when the connection does not stay open.
    private mutating func messageEnded() {
        let keepsAlive = head.minorVersion == 1 ? !head.closes : head.keepsAlive
        head = Head()
        state = keepsAlive ? .head : .closed
    }
}
