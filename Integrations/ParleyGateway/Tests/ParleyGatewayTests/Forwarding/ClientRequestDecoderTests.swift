import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
@testable import ParleyGateway
import Testing

/// The gateway's HTTP/1.1 client codec reads what NIO's request decoder (with the gateway's
/// limits) and the conversion to HTTP types it replaced read from the same bytes: the same heads,
/// fields, bodies and trailers, and an error where they fail; on well-formed requests, hostile
/// ones (smuggling, framing conflicts, bad characters, bad chunks, bad request lines, the limits),
/// each delivered whole, split at every line and byte by byte, then the connection closes.
@Suite(.timeLimit(.minutes(2))) struct ClientRequestDecoderTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        /// The bytes the client sends.
        var bytes: [UInt8]
        /// What the gateway reads where NIO reads otherwise (`nil`: what NIO reads).
        var differs: [Event]?

        init(_ description: String, _ text: String, differs: [Event]? = nil) {
            self.testDescription = description
            self.bytes = Array(text.utf8)
            self.differs = differs
        }

        init(_ description: String, bytes: [UInt8]) {
            self.testDescription = description
            self.bytes = bytes
        }
    }

    /// What a channel read, with consecutive body parts joined; nothing after an error.
    enum Event: Equatable, Sendable, CustomStringConvertible {
        case head(String, String?, String?, [String])
        case body(String)
        case end([String]?)
        case error

        var description: String {
            switch self {
            case .head(let method, let authority, let path, let fields):
                "head \(method) \(authority ?? "-") \(path ?? "-") \(fields)"
            case .body(let text): "body \(text.debugDescription)"
            case .end(let trailers): "end \(trailers.map { "\($0)" } ?? "-")"
            case .error: "error"
            }
        }
    }

    /// How the bytes are delivered.
    enum Delivery: CaseIterable, Sendable {
        case whole, lines, bytes
    }

    /// The gateway's limits at their defaults: 16 KiB of target, names and values, 1000 fields.
    static let limits: NIOHTTPDecoderLimitConfiguration = {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = maxHeaderBytes
        limits.maxHeaderListSize = maxHeaderBytes
        limits.maxHeaderFieldCount = ConnectionPipeline.maxHeaderFields
        return limits
    }()
    static let maxHeaderBytes = 16 * 1024

    @Test(arguments: ClientRequestDecoderTests.cases, Delivery.allCases)
    func readsWhatNIOReads(_ request: Case, delivery: Delivery) throws {
        let reads = Self.split(request.bytes, delivery)
        let expected = try nioEvents(reads)
        let actual = try gatewayEvents(reads)
        #expect(actual == (request.differs ?? expected), "NIO read \(expected)")
        if let differs = request.differs {
            // A case listed as different is listed only while NIO reads otherwise.
            #expect(differs != expected)
        }
    }

    /// A head over the limits is `headerOverflow`, the error the head guard answers 431.
    @Test(arguments: [
        "GET /\(String(repeating: "a", count: maxHeaderBytes)) HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\nX-Big: \(String(repeating: "a", count: maxHeaderBytes))\r\n\r\n",
        "GET / HTTP/1.1\r\n\(String(repeating: "X-A: 1\r\n", count: 1001))\r\n",
    ])
    func aHeadOverTheLimitsIsAHeaderOverflow(_ request: String) throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(HTTPTypesServerCodec(limits: Self.limits, upgrade: nil))
        #expect(throws: HTTPParserError.headerOverflow) { try channel.writeInbound(ByteBuffer(string: request)) }
        _ = try? channel.finish()
    }

    private static func split(_ bytes: [UInt8], _ delivery: Delivery) -> [[UInt8]] {
        switch delivery {
        case .whole:
            return [bytes]
        case .bytes:
            return bytes.map { [$0] }
        case .lines:
            var reads: [[UInt8]] = [[]]
            for byte in bytes {
                reads[reads.count - 1].append(byte)
                if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") { reads.append([]) }
            }
            return reads.filter { !$0.isEmpty }
        }
    }

    private func nioEvents(_ reads: [[UInt8]]) throws -> [Event] {
        let channel = EmbeddedChannel()
        let recorder = Recorder<HTTPServerRequestPart> { part in
            switch part {
            case .head(let head):
                guard let converted = try? HTTPTypesStreamCodec.request(head) else { return .error }
                return Self.event(.head(converted))
            case .body(let body): return .body(String(buffer: body))
            case .end(let trailers): return Self.event(.end(trailers.map { HTTPFields($0, splitCookie: false) }))
            }
        }
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: Self.limits)))
        try channel.pipeline.syncOperations.addHandler(recorder)
        return try run(channel, recorder, reads)
    }

    private func gatewayEvents(_ reads: [[UInt8]]) throws -> [Event] {
        let channel = EmbeddedChannel()
        let recorder = Recorder<HTTPRequestPart>(Self.event)
        try ConnectionPipeline.addHTTP1Codec(to: channel.pipeline.syncOperations, upgrade: nil, limits: Self.limits)
        try channel.pipeline.syncOperations.addHandler(recorder)
        return try run(channel, recorder, reads)
    }

    private func run<Part>(_ channel: EmbeddedChannel, _ recorder: Recorder<Part>, _ reads: [[UInt8]]) throws
        -> [Event] {
        for read in reads where !recorder.failed {
            _ = try? channel.writeInbound(ByteBuffer(bytes: read))
        }
        _ = try? channel.finish()
        return recorder.events
    }

    private static func event(_ part: HTTPRequestPart) -> Event {
        func lines(_ fields: HTTPFields) -> [String] { fields.map { "\($0.name.rawName): \($0.value)" } }
        switch part {
        case .head(let head): return .head(head.method.rawValue, head.authority, head.path, lines(head.headerFields))
        case .body(let body): return .body(String(buffer: body))
        case .end(let trailers): return .end(trailers.map(lines))
        }
    }

    /// Records what reaches the end of a pipeline: parts as events (bodies joined), and errors.
    private final class Recorder<Part>: ChannelInboundHandler {
        typealias InboundIn = Part
        private let convert: (Part) -> Event
        private(set) var events: [Event] = []
        var failed: Bool { events.last == .error }

        init(_ convert: @escaping (Part) -> Event) { self.convert = convert }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !failed else { return }
            let event = convert(unwrapInboundIn(data))
            if case .body(let more) = event, case .body(let text) = events.last {
                events[events.count - 1] = .body(text + more)
            } else {
                events.append(event)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if !failed { events.append(.error) }
        }
    }

    static let get = "GET /orders?id=1 HTTP/1.1\r\nHost: example.com\r\n"
    static let post = "POST /orders HTTP/1.1\r\nHost: example.com\r\n"
    static let chunked = post + "Transfer-Encoding: chunked\r\n\r\n"

    static let cases: [Case] = {
        var cases: [Case] = [
            // Framing that holds.
            Case("a GET", get + "Accept: application/json\r\nUser-Agent: t\r\n\r\n"),
            Case("a GET without Host", "GET / HTTP/1.1\r\n\r\n"),
            Case("two Host fields: the first is the authority", "GET / HTTP/1.1\r\nhost: a\r\nHost: b\r\n\r\n"),
            Case("an empty Host", "GET / HTTP/1.1\r\nHost:\r\n\r\n"),
            Case("Content-Length", post + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"),
            Case("Content-Length 0", post + "Content-Length: 0\r\n\r\n"),
            Case("Content-Length with leading zeros and spaces", post + "Content-Length:   002  \r\n\r\n{}"),
            Case("upper-case framing names", post + "CONTENT-LENGTH: 2\r\n\r\n{}"),
            Case("a body on a GET", get + "Content-Length: 3\r\n\r\nabc"),
            Case("Expect: 100-continue", post + "Expect: 100-continue\r\nContent-Length: 2\r\n\r\n{}"),
            Case("chunked", chunked + "2\r\n{}\r\n3\r\nabc\r\n0\r\n\r\n"),
            Case("chunked, upper-case hex and coding",
                 post + "Transfer-Encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n"),
            Case("chunk extensions", chunked + "2;a=b;c\r\n{}\r\n1;q=\"x y\\\"z\"\r\n!\r\n0;last\r\n\r\n"),
            Case("trailers", chunked + "2\r\n{}\r\n0\r\nX-Sum: 1\r\nX-Other:  two \r\n\r\n"),
            Case("a Host trailer is dropped, as the conversion drops it", chunked + "0\r\nHost: c\r\nX-A: 1\r\n\r\n"),
            Case("gzip then chunked", post + "Transfer-Encoding: gzip, chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n"),
            Case("chunked over two fields",
                 post + "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n"),
            Case("chunked twice", post + "Transfer-Encoding: chunked, chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n"),
            Case("empty lines before the request line", "\r\n\r\n" + get + "\r\n"),
            Case("empty and spaced values", get + "X-A:\r\nX-B:   \r\nX-C: a \t b\t \r\n\r\n"),
            Case("obs-text and UTF-8 in a value", get + "X-A: caf\u{E9} \u{FF}\r\n\r\n"),
            Case("bytes that are not UTF-8 in a value",
                 bytes: Array((get + "X-A: a").utf8) + [0xFF, 0xC3, 0x28, 0x80] + Array("b\r\n\r\n".utf8)),
            Case("bytes that are not UTF-8 in the target",
                 bytes: Array("GET /a".utf8) + [0xFF, 0xC3] + Array(" HTTP/1.1\r\nHost: a\r\n\r\n".utf8)),
            Case("UTF-8 in the target", "GET /caf\u{E9} HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("cookies", get + "Cookie: a=1\r\nCookie: b=2; c=3\r\n\r\n"),
            Case("HTTP/1.0 with a length", "POST / HTTP/1.0\r\nContent-Length: 2\r\n\r\n{}"),
            Case("HTTP/1.0 kept alive, then another",
                 "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.0\r\n\r\n"),
            Case("HTTP/1.0, then data", "GET /a HTTP/1.0\r\n\r\nGET /b HTTP/1.0\r\n\r\n"),
            Case("HTTP/1.0, then CRLF", "GET /a HTTP/1.0\r\n\r\n\r\n"),
            Case("three requests repeating some fields, in other cases and values",
                 get + "Date: Sun, 29 Nov 2026 07:00:00 GMT\r\nX-A: 1\r\nContent-Length: 1\r\n\r\na"
                    + get + "Date: Sun, 29 Nov 2026 07:00:01 GMT\r\nx-a: 1\r\nContent-Length: 1\r\nX-B: 2\r\n\r\nb"
                    + "GET /other HTTP/1.1\r\nHost: other\r\nx-a: 1 \r\nContent-Length: 1\r\n\r\nc"),
            Case("a HEAD then a GET", "HEAD / HTTP/1.1\r\nHost: a\r\n\r\n" + get + "\r\n"),
            Case("Connection: close, then data", get + "Connection: Keep-Alive, Close\r\n\r\n" + get + "\r\n"),
            Case("Connection: close, then CRLF", get + "Connection: close\r\n\r\n\r\n"),
            Case("Proxy-Connection: close, then data", get + "Proxy-Connection: close\r\n\r\n" + get + "\r\n"),
            Case("a body longer than its length, then garbage", post + "Content-Length: 2\r\n\r\n{}xyz"),
            // Methods.
            Case("DELETE", "DELETE /a HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("PUT with a body", "PUT /a HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\nx"),
            Case("PATCH", "PATCH /a HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\nx"),
            Case("OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("TRACE", "TRACE / HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("PROPFIND", "PROPFIND /a HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("UNSUBSCRIBE", "UNSUBSCRIBE /a HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("MKCALENDAR", "MKCALENDAR /a HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("QUERY", "QUERY /a HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\nx"),
            Case("SOURCE", "SOURCE /a HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("PURGE", "PURGE /a HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("a lower-case method", "get / HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("an unknown method", "FETCH / HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("a method with a prefix of a known one", "GE / HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("a method longer than a known one", "GETS / HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("an RTSP method", "DESCRIBE / HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("HTTP/2's preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
            Case("no method", " / HTTP/1.1\r\nHost: a\r\n\r\n"),
            // NIO's conversion names M-SEARCH `MSEARCH`; the gateway keeps the method it was sent.
            Case("M-SEARCH", "M-SEARCH * HTTP/1.1\r\nHost: a\r\n\r\n",
                 differs: [.head("M-SEARCH", "a", "*", []), .end(nil)]),
            // Targets.
            Case("an absolute-form target", "GET http://example.com/a/b?c=d HTTP/1.1\r\nHost: example.com\r\n\r\n"),
            Case("an absolute-form target without a path", "GET http://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n"),
            Case("an absolute-form target in capitals", "GET HTTP://EXAMPLE.COM/A HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("an https target", "GET https://example.com:8443/a HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("a target with a fragment", "GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("a target of two slashes", "GET //a/b HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("a target with characters outside RFC 3986", "GET /a\"<>{}|\\^`b HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("a target starting with ?", "GET ?a HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("a relative target", "GET a/b HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("a target of * and more", "OPTIONS *a HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("an empty target", "GET  HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("a space in the target", "GET /a b HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("a tab in the target", "GET /a\tb HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("NUL in the target", "GET /a\u{0}b HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("DEL in the target", "GET /a\u{7F}b HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("a control character in the target", "GET /a\u{1}b HTTP/1.1\r\nHost: a\r\n\r\n"),
            // CONNECT and upgrades: llhttp decodes nothing after them.
            Case("CONNECT, then more", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n" + get + "\r\n"),
            Case("CONNECT with a length", "CONNECT example.com:443 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}"),
            Case("CONNECT to a path", "CONNECT /a HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("an upgrade, then more",
                 get + "Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n" + get + "\r\n"),
            Case("an upgrade with a body, then more",
                 post + "Connection: upgrade\r\nUpgrade: h2c\r\nContent-Length: 2\r\n\r\n{}" + get + "\r\n"),
            Case("an upgrade chunked, then more",
                 chunked.dropLast(1) + "Connection: upgrade\r\nUpgrade: h2c\r\n\r\n1\r\nx\r\n0\r\n\r\n" + get + "\r\n"),
            Case("an upgrade with gzip and no body",
                 get + "Connection: upgrade\r\nUpgrade: h2c\r\nTransfer-Encoding: gzip\r\n\r\n" + get + "\r\n"),
            Case("Upgrade without Connection: upgrade, then more",
                 get + "Connection: HTTP2-Settings\r\nUpgrade: h2c\r\n\r\n" + get + "\r\n"),
            Case("Connection: upgrade without Upgrade, then more", get + "Connection: upgrade\r\n\r\n" + get + "\r\n"),
            Case("Upgrade through Proxy-Connection, then more",
                 get + "Proxy-Connection: upgrade\r\nUpgrade: h2c\r\n\r\n" + get + "\r\n"),
            // Framing conflicts and bad lengths.
            Case("Content-Length then Transfer-Encoding",
                 post + "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"),
            Case("Transfer-Encoding then Content-Length",
                 post + "Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n"),
            Case("gzip and a length", post + "Transfer-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}"),
            Case("chunked then gzip", post + "Transfer-Encoding: chunked, gzip\r\n\r\n1\r\nx\r\n0\r\n\r\n"),
            Case("chunked then a gzip field",
                 post + "Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n1\r\nx\r\n0\r\n\r\n"),
            Case("gzip alone", post + "Transfer-Encoding: gzip\r\n\r\nabc"),
            Case("an empty Transfer-Encoding", post + "Transfer-Encoding:\r\n\r\nabc"),
            Case("identity", post + "Transfer-Encoding: identity\r\n\r\nabc"),
            Case("chunked with a quoted parameter", post + "Transfer-Encoding: chunked;q=1\r\n\r\n1\r\nx\r\n0\r\n\r\n"),
            Case("chunked HTTP/1.0",
                 "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n"),
            Case("two equal lengths", post + "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}"),
            Case("two lengths", post + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}"),
            Case("a list of lengths", post + "Content-Length: 2, 2\r\n\r\n{}"),
            Case("an empty length", post + "Content-Length: \r\n\r\n{}"),
            Case("a negative length", post + "Content-Length: -1\r\n\r\n{}"),
            Case("a signed length", post + "Content-Length: +2\r\n\r\n{}"),
            Case("a hex length", post + "Content-Length: 0x2\r\n\r\n{}"),
            Case("a length with a space inside", post + "Content-Length: 1 2\r\n\r\n{}"),
            Case("a length that overflows", post + "Content-Length: 99999999999999999999999\r\n\r\n"),
            Case("a body shorter than its length", post + "Content-Length: 10\r\n\r\n{}"),
            // Bad chunks.
            Case("a chunk size that is not hex", chunked + "g\r\nx\r\n0\r\n\r\n"),
            Case("an empty chunk size", chunked + "\r\nx\r\n0\r\n\r\n"),
            Case("a space before a chunk size", chunked + " 1\r\nx\r\n0\r\n\r\n"),
            Case("a space after a chunk size", chunked + "1 \r\nx\r\n0\r\n\r\n"),
            Case("a 0x chunk size", chunked + "0x1\r\nx\r\n0\r\n\r\n"),
            Case("a negative chunk size", chunked + "-1\r\nx\r\n0\r\n\r\n"),
            Case("a chunk size that overflows", chunked + "FFFFFFFFFFFFFFFFF\r\nx\r\n0\r\n\r\n"),
            Case("chunk data longer than its size", chunked + "1\r\nxy\r\n0\r\n\r\n"),
            Case("a bare LF after chunk data", chunked + "1\r\nx\n0\r\n\r\n"),
            Case("a bare CR after chunk data", chunked + "1\r\nx\r0\r\n\r\n"),
            Case("no CRLF after chunk data", chunked + "1\r\nx0\r\n\r\n"),
            Case("a bare LF after a chunk size", chunked + "1\nx\r\n0\r\n\r\n"),
            Case("a bare LF after the last chunk", chunked + "0\n\r\n"),
            Case("a bare LF ending the trailers", chunked + "0\r\n\n"),
            Case("an empty chunk extension", chunked + "1;\r\nx\r\n0\r\n\r\n"),
            Case("a chunk extension without a name", chunked + "1;=a\r\nx\r\n0\r\n\r\n"),
            Case("a chunk extension without a value", chunked + "1;a=\r\nx\r\n0\r\n\r\n"),
            Case("a space in a chunk extension", chunked + "1; a=b\r\nx\r\n0\r\n\r\n"),
            Case("an unterminated quoted chunk extension", chunked + "1;a=\"b\r\nx\r\n0\r\n\r\n"),
            Case("an empty chunk extension between two", chunked + "1;;a\r\nx\r\n0\r\n\r\n"),
            Case("an empty last chunk extension", chunked + "1;a;\r\nx\r\n0\r\n\r\n"),
            Case("a tab in a chunk extension", chunked + "1;a\t=b\r\nx\r\n0\r\n\r\n"),
            Case("a bare CR in a chunk extension", chunked + "1;a=\"\r\"\r\nx\r\n0\r\n\r\n"),
            Case("NUL in a chunk extension", chunked + "1;a=\u{0}\r\nx\r\n0\r\n\r\n"),
            Case("obs-fold in trailers", chunked + "0\r\nX-A: 1\r\n 2\r\n\r\n"),
            Case("a Transfer-Encoding trailer", chunked + "0\r\nTransfer-Encoding: gzip\r\n\r\n"),
            Case("a Content-Length trailer", chunked + "0\r\nContent-Length: 5\r\n\r\n"),
            Case("a trailer that is not a field", chunked + "0\r\nnot a field\r\n\r\n"),
            Case("a chunked body cut short", chunked + "5\r\nab"),
            Case("a chunked body without its last chunk", chunked + "1\r\nx\r\n"),
            Case("trailers cut short", chunked + "0\r\nX-A: 1\r\n"),
            Case("a chunked request, then another", chunked + "1\r\nx\r\n0\r\n\r\n" + get + "\r\n"),
            // Bad lines and characters.
            Case("a bare LF after the request line", "GET / HTTP/1.1\nHost: a\r\n\r\n"),
            Case("a bare LF after a field", get + "X-A: 1\n\r\n"),
            Case("bare LFs throughout", "GET / HTTP/1.1\nHost: a\n\n"),
            Case("a bare CR after the request line", "GET / HTTP/1.1\rHost: a\r\n\r\n"),
            Case("a bare CR in a value", get + "X-A: a\rb\r\n\r\n"),
            Case("a bare CR ending the head", get + "X-A: 1\r\n\r\r\n"),
            Case("NUL in a value", get + "X-A: a\u{0}b\r\n\r\n"),
            Case("a control character in a value", get + "X-A: a\u{1}b\r\n\r\n"),
            Case("DEL in a value", get + "X-A: a\u{7F}b\r\n\r\n"),
            Case("a form feed in a value", get + "X-A: a\u{C}b\r\n\r\n"),
            Case("obs-fold", get + "X-A: a\r\n b\r\n\r\n"),
            Case("obs-fold with a tab", get + "X-A: a\r\n\tb\r\n\r\n"),
            Case("obs-fold of a length", post + "Content-Length:\r\n 2\r\n\r\n{}"),
            Case("a space before the first field", "GET / HTTP/1.1\r\n Host: a\r\n\r\n"),
            Case("a space before a colon", post + "Content-Length : 2\r\n\r\n{}"),
            Case("a tab before a colon", post + "Content-Length\t: 2\r\n\r\n{}"),
            Case("a field without a colon", get + "X-A 1\r\n\r\n"),
            Case("an empty field name", get + ": a\r\n\r\n"),
            Case("a field name that is not a token", get + "X(A): a\r\n\r\n"),
            Case("a field name with NUL", get + "X\u{0}A: a\r\n\r\n"),
            Case("a field name with UTF-8", get + "X-\u{E9}: a\r\n\r\n"),
            // Bad request lines.
            Case("HTTP/1.2", "GET / HTTP/1.2\r\nHost: a\r\n\r\n"),
            Case("HTTP/2.0", "GET / HTTP/2.0\r\nHost: a\r\n\r\n"),
            Case("HTTP/0.9", "GET / HTTP/0.9\r\nHost: a\r\n\r\n"),
            Case("HTTP/3.0", "GET / HTTP/3.0\r\nHost: a\r\n\r\n"),
            Case("HTTP/1.10", "GET / HTTP/1.10\r\nHost: a\r\n\r\n"),
            Case("HTTP/1", "GET / HTTP/1\r\nHost: a\r\n\r\n"),
            Case("no version", "GET /\r\nHost: a\r\n\r\n"),
            Case("a lower-case protocol", "GET / http/1.1\r\nHost: a\r\n\r\n"),
            Case("a space after the version", "GET / HTTP/1.1 \r\nHost: a\r\n\r\n"),
            Case("two spaces before the target", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("two spaces before the version", "GET /  HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("a tab before the target", "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n"),
            Case("not HTTP", "HELLO\r\n\r\n"),
            Case("a head cut short", get + "Content-Length: 2\r\n"),
            Case("a request line cut short", "GET /a HT"),
            Case("a method cut short", "GE"),
            Case("nothing", ""),
        ]
        // The limits: 16 KiB of target, names and values, 1000 fields.
        let name = "X-Big"
        let atLimit = String(repeating: "a", count: maxHeaderBytes - "/".count - name.count - "Host".count - 1)
        cases.append(Case("fields at the size limit", "GET / HTTP/1.1\r\nHost: a\r\n\(name): \(atLimit)\r\n\r\n"))
        cases.append(Case("fields over the size limit", "GET / HTTP/1.1\r\nHost: a\r\n\(name): \(atLimit)a\r\n\r\n"))
        cases.append(Case("a target at the size limit",
                          "GET /\(String(repeating: "a", count: maxHeaderBytes - 1)) HTTP/1.1\r\n\r\n"))
        cases.append(Case("a target over the size limit",
                          "GET /\(String(repeating: "a", count: maxHeaderBytes)) HTTP/1.1\r\n\r\n"))
        cases.append(Case("trailers over the size limit",
                          "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\(name): \(atLimit.dropLast(30))\r\n\r\n"
                              + "1\r\nx\r\n0\r\nX-Trailer: \(String(repeating: "b", count: 40))\r\n\r\n"))
        let fields = { (count: Int) in String(repeating: "X-A: 1\r\n", count: count) }
        cases.append(Case("1000 fields", "GET / HTTP/1.1\r\n\(fields(1000))\r\n"))
        cases.append(Case("1001 fields", "GET / HTTP/1.1\r\n\(fields(1001))\r\n"))
        cases.append(Case("fields and trailers over 1000",
                          "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\(fields(998))\r\n0\r\n\(fields(2))\r\n"))
        return cases
    }()
}
