import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Decodes a client's HTTP/1.1 requests from the bytes that arrive, straight into HTTP types parts:
/// what NIO's `HTTPRequestDecoder` (llhttp) and the extras' conversion to HTTP types produce (the
/// first `Host` field as the authority, out of the fields), without NIO's head, its field list and
/// their copies. A value keeps the bytes received: its text (``HTTPField/value``) is what NIO
/// decodes (UTF-8, an invalid sequence replaced), and the writers forward its bytes (``HeadWriter``).
///
/// Framing is as strict as llhttp's: lines end in CRLF (a bare LF or CR is an error), the method is
/// one of llhttp's HTTP methods (`M-SEARCH` stays `M-SEARCH`, which NIO's conversion renamed
/// `MSEARCH`), the target visible ASCII in origin, asterisk or absolute form (authority form for
/// `CONNECT`), the protocol `HTTP/1.0` or `HTTP/1.1`, field names are tokens, values hold no
/// control character but tab (no NUL), obs-fold is refused, a `Content-Length` must be digits,
/// once, and not with `Transfer-Encoding`, whose last coding must be `chunked` (and only once). Chunk
/// sizes are hex, their extensions `;name[=token|"quoted"]`, trailers are fields. A request without
/// either framing field has no body. After a request that asks for an upgrade (`Upgrade` with
/// `Connection: upgrade`, or `CONNECT`) nothing more is decoded, as llhttp stops there; after one
/// that does not keep the connection open (HTTP/1.0 without `keep-alive`, `Connection: close`) only
/// CR and LF may follow. The target, names and values of a head and its trailers hold at most
/// `maxHeaderBytes` bytes together, in at most `maxFieldCount` fields (NIO's limits as the gateway
/// sets them; over them is `HTTPParserError.headerOverflow`, which the head guard answers 431).
///
/// The decoder is given bytes with ``receive(_:)`` and hands out one part at a time with
/// ``next()``, so that its owner passes each on outside any access to it.
struct ClientRequestDecoder {
    private enum State {
        /// Reading a head: its request line (once `head.method` is set, its fields).
        case head
        /// Reading a body framed by its length or by chunks.
        case body(HTTP1Body)
        /// The last request does not keep the connection open: only CR and LF may follow.
        case closed
        /// After a request that asks for an upgrade, or an error: nothing more is decoded.
        case stopped
    }

    /// What is known of the head (or trailers) being read.
    private struct Head {
        var method: HTTPRequest.Method?
        var target: String?
        var minorVersion = 1
        var fields = HTTPFields()
        /// How many of `fields` are this head's: a refilled list's first ones (the rest is cut at its end).
        var written = 0
        var authority: String?
        var fieldBytes = 0
        var fieldCount = 0
        var contentLength: Int?
        var hasTransferEncoding = false
        var isChunked = false
        /// Whether a transfer coding came after `chunked` (llhttp refuses that in a request).
        var sawChunked = false
        var closes = false
        var keepsAlive = false
        var asksUpgrade = false
        var connectionUpgrade = false
        /// Whether a `Host` field was taken out (the extras' conversion takes the first out).
        var droppedHost = false
        /// Whether a trailer line came.
        var hasTrailers = false
    }

    private let maxHeaderBytes: Int
    private let maxFieldCount: Int
    private var state = State.head
    private var head = Head()
    /// The fields of the connection's last head: a field the next head repeats at the same
    /// position is reused rather than built again (a keep-alive client repeats most of them).
    private var previousFields = HTTPFields()
    /// The fields of the head before the last: the next head's fields are written into their
    /// storage (the exchange that had them has let them go by then, or they are copied).
    private var spareFields: HTTPFields?
    /// The last request handed out: its storage is reused once the exchange that had it let it go.
    private var previousRequest: HTTPRequest?
    /// The bytes received and not decoded yet.
    private var input = HTTP1Input()
    /// An `.end` owed after a head (a request without a body) or the last body bytes.
    private var pendingEnd = false
    /// An error owed after a head (llhttp passes on the head of a request whose framing it refuses).
    private var pendingError: (any Error)?

    /// The minor version of the last request head handed out (`HTTP/1.0` or `HTTP/1.1`).
    private(set) var lastMinorVersion = 1
    /// The field lines of the head being read, written as its fields are read; their storage is
    /// refilled from one head to the next.
    private var lines = ClientFieldLines()
    /// Whether `lines` are the last head's.
    private var linesAreLastHeads = false

    /// The field lines of the last request head handed out (``ClientFieldLines``), unless it has
    /// more than one `Cookie`: read when its part is handed out, before the next head is decoded.
    var fieldLines: ClientFieldLines? { linesAreLastHeads && lines.cookieCount <= 1 ? lines : nil }

    init(limits: NIOHTTPDecoderLimitConfiguration) {
        self.maxHeaderBytes = min(limits.maxHeaderFieldSize, limits.maxHeaderListSize)
        self.maxFieldCount = limits.maxHeaderFieldCount
    }

    /// Takes bytes from the connection (once decoding has stopped, drops them).
    mutating func receive(_ bytes: ByteBuffer) {
        if case .stopped = state, !pendingEnd { return }
        input.receive(bytes)
    }

    /// The bytes received and not decoded (those after a request that asked for an upgrade).
    mutating func takeRemainingBytes() -> ByteBuffer {
        input.takeAll()
    }

    /// The next part decoded from the bytes received, or `nil` when more bytes are needed.
    mutating func next() throws -> HTTPRequestPart? {
        if let error = pendingError.take() { throw error }
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

    /// Called when the connection ends: throws when it cuts a request short.
    mutating func finish() throws {
        switch state {
        case .head:
            guard head.method == nil, input.readableBytes == 0 else { break }
            return
        case .closed, .stopped:
            return
        case .body:
            break
        }
        state = .stopped
        throw HTTPParserError.invalidEOFState
    }

    private mutating func decode() throws -> HTTPRequestPart? {
        while true {
            switch state {
            case .head:
                if head.method == nil { input.skipEmptyLines() }
                guard let line = try input.readLine(limit: headLineLimit) else {
                    if head.method == nil { try checkMethodStart() }
                    return nil
                }
                if head.method == nil {
                    try readRequestLine(line)
                } else if line.readableBytes > 0 {
                    try readField(line, trailer: false)
                } else {
                    return try headEnded()
                }
            case .body(var body):
                let event = try body.read(from: &input, chunkLineLimit: maxHeaderBytes,
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

    /// Refuses the start of a request line whose method cannot be one as soon as it arrives.
    private func checkMethodStart() throws {
        let method = input.readableBytesView.prefix(Self.longestMethod + 1).prefix { $0 != UInt8(ascii: " ") }
        guard method.count <= Self.longestMethod,
              method.allSatisfy({ ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 == UInt8(ascii: "-") })
        else { throw HTTPParserError.invalidMethod }
    }

    /// How long an unfinished line of a head or trailers may grow: the start line, or a field's
    /// name, colon, spaces and value, within what the field limit leaves.
    private var headLineLimit: Int { maxHeaderBytes - head.fieldBytes + 64 }

    /// Reads `method SP target SP HTTP/1.x`.
    private mutating func readRequestLine(_ line: ByteBuffer) throws {
        let previous = previousRequest
        let (method, target, minor) = try line.withUnsafeReadableBytes { bytes throws
            -> (HTTPRequest.Method, String, Int) in
            guard let methodEnd = bytes.firstIndex(of: UInt8(ascii: " ")),
                  let method = Self.method(UnsafeRawBufferPointer(rebasing: bytes[..<methodEnd]))
            else { throw HTTPParserError.invalidMethod }
            // As llhttp reads it: one or more spaces before the target and before the version.
            var targetStart = methodEnd + 1
            while targetStart < bytes.count, bytes[targetStart] == UInt8(ascii: " ") { targetStart += 1 }
            var targetEnd = targetStart
            while targetEnd < bytes.count, bytes[targetEnd] != UInt8(ascii: " ") { targetEnd += 1 }
            guard targetEnd > targetStart, targetEnd < bytes.count else { throw HTTPParserError.invalidURL }
            let targetBytes = UnsafeRawBufferPointer(rebasing: bytes[targetStart..<targetEnd])
            guard Self.isValidTarget(targetBytes, connect: method == .connect) else {
                throw HTTPParserError.invalidURL
            }
            var versionStart = targetEnd + 1
            while versionStart < bytes.count, bytes[versionStart] == UInt8(ascii: " ") { versionStart += 1 }
            let version = UnsafeRawBufferPointer(rebasing: bytes[versionStart...])
            guard version.count == 8, version.starts(with: "HTTP/1.".utf8) else {
                throw HTTPParserError.invalidVersion
            }
            let minor = version[7]
            guard minor == UInt8(ascii: "0") || minor == UInt8(ascii: "1") else { throw HTTPParserError.invalidVersion }
            var target: String
            if let path = previous?.path, HTTP1Syntax.is(path, targetBytes) {
                target = path
            } else {
                target = String(decoding: targetBytes, as: UTF8.self)
            }
            return (method, target, Int(minor - UInt8(ascii: "0")))
        }
        head.method = method
        head.target = target
        head.minorVersion = minor
        lines.removeAll()
        linesAreLastHeads = false
        head.fieldBytes = target.utf8.count
        guard head.fieldBytes <= maxHeaderBytes else { throw HTTPParserError.headerOverflow }
        // Written over in place (emptying it first would go through HTTPFields' unspecialised
        // replaceSubrange, which costs more than the allocation it saves).
        if let spare = spareFields.take() { head.fields = spare }
        head.fields.reserveCapacity(max(previousFields.count, 8))
    }

    /// The method of llhttp's HTTP methods `bytes` spell, or `nil`.
    private static func method(_ bytes: UnsafeRawBufferPointer) -> HTTPRequest.Method? {
        guard !bytes.isEmpty, bytes.count <= longestMethod else { return nil }
        switch bytes.count {
        case 3:
            if bytes.elementsEqual("GET".utf8) { return .get }
            if bytes.elementsEqual("PUT".utf8) { return .put }
        case 4:
            if bytes.elementsEqual("POST".utf8) { return .post }
            if bytes.elementsEqual("HEAD".utf8) { return .head }
        default:
            break
        }
        let name = String(decoding: bytes, as: UTF8.self)
        guard methods.contains(name) else { return nil }
        return HTTPRequest.Method(name)
    }

    /// llhttp's HTTP methods (its RTSP and ICE ones are refused with an HTTP version).
    private static let methods: Set<String> = [
        "DELETE", "GET", "HEAD", "POST", "PUT", "CONNECT", "OPTIONS", "TRACE", "COPY", "LOCK", "MKCOL", "MOVE",
        "PROPFIND", "PROPPATCH", "SEARCH", "UNLOCK", "BIND", "REBIND", "UNBIND", "ACL", "REPORT", "MKACTIVITY",
        "CHECKOUT", "MERGE", "M-SEARCH", "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE", "PATCH", "PURGE", "MKCALENDAR",
        "LINK", "UNLINK", "SOURCE", "QUERY",
    ]
    private static let longestMethod = 11

    /// Whether llhttp takes `target`: origin form (`/…`), asterisk form (`*…`), absolute form
    /// (`scheme://…`), or for `CONNECT` authority form; its bytes are visible ASCII.
    private static func isValidTarget(_ target: UnsafeRawBufferPointer, connect: Bool) -> Bool {
        guard target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
        if connect { return true }
        switch target[0] {
        case UInt8(ascii: "/"), UInt8(ascii: "*"):
            return true
        default:
            // scheme "://": letters (llhttp's schema state) then "://".
            guard let colon = target.firstIndex(of: UInt8(ascii: ":")), colon > 0,
                  target[..<colon].allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }),
                  target.count >= colon + 3,
                  target[colon + 1] == UInt8(ascii: "/"), target[colon + 2] == UInt8(ascii: "/")
            else { return false }
            return true
        }
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
        guard head.fieldCount <= maxFieldCount, head.fieldBytes <= maxHeaderBytes else {
            throw HTTPParserError.headerOverflow
        }
        if trailer { head.hasTrailers = true }
        if HTTP1Syntax.is(name, "content-length") {
            guard head.contentLength == nil, !value.isEmpty else { throw HTTPParserError.unexpectedContentLength }
            guard !head.hasTransferEncoding else { throw HTTPParserError.unexpectedContentLength }
            head.contentLength = try HTTP1Syntax.contentLength(value)
        } else if HTTP1Syntax.is(name, "transfer-encoding"), !value.isEmpty {
            guard head.contentLength == nil else { throw HTTPParserError.unexpectedContentLength }
            head.hasTransferEncoding = true
            // Chunked when its last coding is `chunked`, over every Transfer-Encoding field (and
            // its trailers); a coding after `chunked` is refused.
            var sawChunked = head.sawChunked
            var codingAfterChunked = false
            HTTP1Syntax.forEachToken(value) { coding in
                if sawChunked { codingAfterChunked = true }
                if HTTP1Syntax.is(coding, "chunked") { sawChunked = true }
            }
            guard !codingAfterChunked else { throw HTTPParserError.unknown }
            head.sawChunked = sawChunked
            head.isChunked = sawChunked
        } else if HTTP1Syntax.is(name, "connection") || HTTP1Syntax.is(name, "proxy-connection") {
            HTTP1Syntax.forEachToken(value) { token in
                if HTTP1Syntax.is(token, "close") { head.closes = true }
                if HTTP1Syntax.is(token, "keep-alive") { head.keepsAlive = true }
                if HTTP1Syntax.is(token, "upgrade") { head.connectionUpgrade = true }
            }
        } else if HTTP1Syntax.is(name, "upgrade") {
            head.asksUpgrade = true
        }
        if !head.droppedHost, HTTP1Syntax.is(name, "host") {
            head.droppedHost = true
            if !trailer {
                let previous = previousRequest?.authority
                head.authority = previous.map { HTTP1Syntax.is($0, value) } == true
                    ? previous : String(decoding: value, as: UTF8.self)
            }
            return
        }
        if !trailer { lines.append(name: name, value: value) }
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

    /// The head is whole: its part.
    private mutating func headEnded() throws -> HTTPRequestPart {
        guard let method = head.method, let target = head.target else { throw HTTPParserError.invalidInternalState }
        let upgrades = method == .connect || (head.asksUpgrade && head.connectionUpgrade)
        let hasBody = head.isChunked || (head.contentLength ?? 0) > 0
        // A transfer coding that is not chunked: llhttp passes the head on, then refuses it.
        let refusedCoding = !(upgrades && (method == .connect || !hasBody)) && head.hasTransferEncoding
            && !head.isChunked
        let path: String
        if target.utf8.first == UInt8(ascii: "/") {
            path = target
        } else {
            // The extras' conversion finds the path of any other target form.
            let converted = try HTTPRequest(HTTPRequestHead(version: .http1_1, method: HTTPMethod(method), uri: target),
                                            secure: false, splitCookie: false)
            path = converted.path ?? target
        }
        var request = previousRequest.take() ?? HTTPRequest(method: method, scheme: "http", authority: nil, path: "/")
        if request.method != method { request.method = method }
        if request.authority != head.authority { request.authority = head.authority }
        if request.path != path { request.path = path }
        head.fields.truncate(to: head.written)
        request.headerFields = head.fields
        previousRequest = request
        spareFields = previousFields
        previousFields = head.fields
        lastMinorVersion = head.minorVersion
        linesAreLastHeads = true
        if refusedCoding {
            state = .stopped
            pendingError = HTTPParserError.unknown
        } else if upgrades && (method == .connect || !hasBody) {
            state = .stopped
            pendingEnd = true
        } else if head.isChunked {
            state = .body(.chunkSize)
            // The trailers are a field list of their own (the framing flags stay).
            head.fields = HTTPFields()
            head.written = 0
            head.droppedHost = false
        } else if let length = head.contentLength, length > 0 {
            state = .body(.fixed(length))
        } else {
            messageEnded()
            pendingEnd = true
        }
        return .head(request)
    }

    /// A request ended: the next head, or nothing more when the connection does not stay open
    /// or the request asked for an upgrade.
    private mutating func messageEnded() {
        let keepsAlive = head.minorVersion == 1 ? !head.closes : head.keepsAlive
        let upgrades = head.method == .connect || (head.asksUpgrade && head.connectionUpgrade)
        head = Head()
        state = upgrades ? .stopped : keepsAlive ? .head : .closed
    }
}
