import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
@testable import ParleyGateway
import Testing

/// The gateway's HTTP/1.1 upstream codec reads what NIO's response decoder (`addHTTPClientHandlers()`'s,
/// informational answers dropped) and the extras' conversion to HTTP types read from the same bytes:
/// the same heads, fields, bodies and trailers, and an error where they fail; on well-formed
/// responses, hostile ones (smuggling, framing conflicts, bad characters, bad chunks), each
/// delivered whole, split at every line and byte by byte, then the connection closes.
@Suite(.timeLimit(.minutes(2))) struct UpstreamResponseDecoderTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        /// The bytes the upstream sends.
        var bytes: String
        /// The methods of the requests sent before.
        var methods: [HTTPRequest.Method] = [.get]
        /// What the gateway reads where NIO reads otherwise (`nil`: what NIO reads).
        var stricter: [Event]?
    }

    /// What a channel read, with consecutive body parts joined; nothing after an error.
    enum Event: Equatable, Sendable, CustomStringConvertible {
        case head(Int, String, [String])
        case body(String)
        case end([String]?)
        case error

        var description: String {
            switch self {
            case .head(let status, let reason, let fields): "head \(status) \(reason) \(fields)"
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

    @Test(arguments: UpstreamResponseDecoderTests.cases, Delivery.allCases)
    func readsWhatNIOReads(_ response: Case, delivery: Delivery) throws {
        let reads = Self.split(Array(response.bytes.utf8), delivery)
        let expected = try nioEvents(response, reads: reads)
        let actual = try gatewayEvents(response, reads: reads)
        #expect(actual == (response.stricter ?? expected), "NIO read \(expected)")
        if let stricter = response.stricter {
            // A case the gateway refuses where NIO does not is listed only while NIO does not.
            #expect(stricter != expected)
        }
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

    private func nioEvents(_ response: Case, reads: [[UInt8]]) throws -> [Event] {
        let channel = EmbeddedChannel()
        let recorder = Recorder<HTTPClientResponsePart> { part in
            switch part {
            case .head(let head):
                guard let converted = try? HTTPResponse(head) else { return .error }
                return Self.event(.head(converted))
            case .body(let body): return .body(String(buffer: body))
            case .end(let trailers): return Self.event(.end(trailers.map { HTTPFields($0, splitCookie: false) }))
            }
        }
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: .init())))
        try channel.pipeline.syncOperations.addHandler(recorder)
        for method in response.methods {
            let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(method), uri: "/")
            try channel.writeOutbound(HTTPClientRequestPart.head(head))
        }
        return try run(channel, recorder, reads)
    }

    private func gatewayEvents(_ response: Case, reads: [[UInt8]]) throws -> [Event] {
        let channel = EmbeddedChannel()
        let recorder = Recorder<HTTPResponsePart>(Self.event)
        try UpstreamPool.configure(channel.pipeline.syncOperations)
        try channel.pipeline.syncOperations.addHandler(recorder)
        for method in response.methods {
            let head = HTTPRequest(method: method, scheme: "http", authority: "upstream", path: "/")
            try channel.writeOutbound(HTTPRequestPart.head(head))
        }
        return try run(channel, recorder, reads)
    }

    private func run<Part>(_ channel: EmbeddedChannel, _ recorder: Recorder<Part>, _ reads: [[UInt8]]) throws
        -> [Event] {
        for read in reads where !recorder.failed {
            try channel.writeInbound(ByteBuffer(bytes: read))
        }
        _ = try? channel.finish()
        return recorder.events
    }

    private static func event(_ part: HTTPResponsePart) -> Event {
        func lines(_ fields: HTTPFields) -> [String] { fields.map { "\($0.name.rawName): \($0.value)" } }
        switch part {
        case .head(let head): return .head(head.status.code, head.status.reasonPhrase, lines(head.headerFields))
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

    static let ok = "HTTP/1.1 200 OK\r\n"

    static let cases: [Case] = {
        var cases: [Case] = [
            // Framing that holds.
            Case(testDescription: "Content-Length",
                 bytes: ok + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"),
            Case(testDescription: "Content-Length 0", bytes: ok + "Content-Length: 0\r\n\r\n"),
            Case(testDescription: "Content-Length with leading zeros and spaces",
                 bytes: ok + "Content-Length:   002  \r\n\r\n{}"),
            Case(testDescription: "upper-case framing names", bytes: ok + "CONTENT-LENGTH: 2\r\n\r\n{}"),
            Case(testDescription: "chunked",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n3\r\nabc\r\n0\r\n\r\n"),
            Case(testDescription: "chunked, upper-case hex and coding",
                 bytes: ok + "Transfer-Encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n"),
            Case(testDescription: "chunk extensions",
                 bytes: ok
                     + "Transfer-Encoding: chunked\r\n\r\n2;a=b;c\r\n{}\r\n1;q=\"x y\\\"z\"\r\n!\r\n0;last\r\n\r\n"),
            Case(testDescription: "trailers",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nX-Sum: 1\r\nX-Other:  two \r\n\r\n"),
            Case(testDescription: "a Host trailer and field are dropped, as the extras' conversion drops them",
                 bytes: ok + "Host: a\r\nHost: b\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nHost: c\r\n\r\n"),
            Case(testDescription: "gzip then chunked",
                 bytes: ok + "Transfer-Encoding: gzip, chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "chunked over two fields",
                 bytes: ok + "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "chunked then gzip: read until close",
                 bytes: ok + "Transfer-Encoding: chunked, gzip\r\n\r\n1\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "gzip alone: read until close", bytes: ok + "Transfer-Encoding: gzip\r\n\r\nabc"),
            Case(testDescription: "no length: read until close",
                 bytes: ok + "Content-Type: text/plain\r\n\r\nabc\r\ndef"),
            Case(testDescription: "no reason phrase", bytes: "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "an empty reason phrase", bytes: "HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "an unknown status", bytes: "HTTP/1.1 299 Fine\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "status 000", bytes: "HTTP/1.1 000 Zero\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "a tab in the reason phrase",
                 bytes: "HTTP/1.1 404 Not\tFound\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "empty lines before the status line",
                 bytes: "\r\n\r\n" + ok + "Content-Length: 0\r\n\r\n"),
            Case(testDescription: "empty and spaced values",
                 bytes: ok + "X-A:\r\nX-B:   \r\nX-C: a \t b\t \r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "obs-text and UTF-8 in a value",
                 bytes: ok + "X-A: caf\u{E9} \u{FF}\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "cookies",
                 bytes: ok + "Set-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "HTTP/1.0 with a length", bytes: "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}"),
            Case(testDescription: "HTTP/1.0 kept alive, twice",
                 bytes: "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\na"
                    + "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nb", methods: [.get, .get]),
            Case(testDescription: "three answers repeating some fields, in other cases and values",
                 bytes: ok + "Date: Sun, 29 Nov 2026 07:00:00 GMT\r\nX-A: 1\r\nContent-Length: 1\r\n\r\na"
                    + ok + "Date: Sun, 29 Nov 2026 07:00:01 GMT\r\nx-a: 1\r\nContent-Length: 1\r\nX-B: 2\r\n\r\nb"
                    + ok + "Date: Sun, 29 Nov 2026 07:00:01 GMT\r\nx-a: 1 \r\nContent-Length: 1\r\n\r\nc",
                 methods: [.get, .get, .get]),
            Case(testDescription: "two answers, the second to HEAD",
                 bytes: ok + "Content-Length: 1\r\n\r\na" + ok + "Content-Length: 5\r\n\r\n", methods: [.get, .head]),
            // Answers without a body.
            Case(testDescription: "HEAD with a length", bytes: ok + "Content-Length: 100\r\n\r\n", methods: [.head]),
            Case(testDescription: "HEAD chunked", bytes: ok + "Transfer-Encoding: chunked\r\n\r\n", methods: [.head]),
            Case(testDescription: "204 with a length", bytes: "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n"),
            Case(testDescription: "304 chunked",
                 bytes: "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n"),
            Case(testDescription: "304 with body bytes after it",
                 bytes: "HTTP/1.1 304 Not Modified\r\nContent-Length: 2\r\n\r\n{}"),
            Case(testDescription: "100 then 200",
                 bytes: "HTTP/1.1 100 Continue\r\n\r\n" + ok + "Content-Length: 2\r\n\r\n{}"),
            Case(testDescription: "103 with fields then 200",
                 bytes: "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n" + ok + "Content-Length: 0\r\n\r\n"),
            Case(testDescription: "100 with a length then 200",
                 bytes: "HTTP/1.1 100 Continue\r\nContent-Length: 2\r\n\r\n" + ok + "Content-Length: 2\r\n\r\n{}"),
            Case(testDescription: "an HTTP/1.0 100 then 200",
                 bytes: "HTTP/1.0 100 Continue\r\n\r\n" + ok + "Content-Length: 0\r\n\r\n"),
            Case(testDescription: "Connection: Close in capitals, then more",
                 bytes: ok + "Connection: Keep-Alive, Close\r\nContent-Length: 0\r\n\r\nx", methods: [.get, .get]),
            Case(testDescription: "HEAD twice",
                 bytes: ok + "Content-Length: 3\r\n\r\n" + ok + "Transfer-Encoding: chunked\r\n\r\n",
                 methods: [.head, .head]),
            Case(testDescription: "101",
                 bytes: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"),
            // Framing conflicts and bad lengths.
            Case(testDescription: "Content-Length then Transfer-Encoding",
                 bytes: ok + "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"),
            Case(testDescription: "Transfer-Encoding then Content-Length",
                 bytes: ok + "Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n"),
            Case(testDescription: "gzip and a length",
                 bytes: ok + "Transfer-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}"),
            Case(testDescription: "two equal lengths", bytes: ok + "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}"),
            Case(testDescription: "two lengths", bytes: ok + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}"),
            Case(testDescription: "a list of lengths", bytes: ok + "Content-Length: 2, 2\r\n\r\n{}"),
            Case(testDescription: "an empty length", bytes: ok + "Content-Length: \r\n\r\n{}"),
            Case(testDescription: "a negative length", bytes: ok + "Content-Length: -1\r\n\r\n{}"),
            Case(testDescription: "a signed length", bytes: ok + "Content-Length: +2\r\n\r\n{}"),
            Case(testDescription: "a hex length", bytes: ok + "Content-Length: 0x2\r\n\r\n{}"),
            Case(testDescription: "a length that overflows",
                 bytes: ok + "Content-Length: 99999999999999999999999\r\n\r\n"),
            Case(testDescription: "a body longer than its length, then garbage",
                 bytes: ok + "Content-Length: 2\r\n\r\n{}xyz"),
            Case(testDescription: "a body shorter than its length", bytes: ok + "Content-Length: 10\r\n\r\n{}"),
            Case(testDescription: "data after Connection: close",
                 bytes: ok + "Connection: close\r\nContent-Length: 2\r\n\r\n{}" + ok + "Content-Length: 0\r\n\r\n",
                 methods: [.get, .get]),
            Case(testDescription: "CRLF after Connection: close",
                 bytes: ok + "Connection: close\r\nContent-Length: 2\r\n\r\n{}\r\n"),
            Case(testDescription: "data after an HTTP/1.0 answer",
                 bytes: "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}x"),
            Case(testDescription: "an answer nobody asked for", bytes: ok + "Content-Length: 0\r\n\r\n", methods: []),
            Case(testDescription: "a second answer nobody asked for",
                 bytes: ok + "Content-Length: 0\r\n\r\n" + ok + "Content-Length: 0\r\n\r\n"),
            // Bad chunks.
            Case(testDescription: "a chunk size that is not hex",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\ng\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "an empty chunk size",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "a space before a chunk size",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n 1\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "a space after a chunk size",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1 \r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "a 0x chunk size",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n0x1\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "a chunk size that overflows",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFF\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "chunk data longer than its size",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1\r\nxy\r\n0\r\n\r\n"),
            Case(testDescription: "a bare LF after chunk data",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1\r\nx\n0\r\n\r\n"),
            Case(testDescription: "a bare LF after a chunk size",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1\nx\r\n0\r\n\r\n"),
            Case(testDescription: "an empty chunk extension",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1;\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "a chunk extension without a name",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1;=a\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "a chunk extension without a value",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1;a=\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "a space in a chunk extension",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1; a=b\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "an unterminated quoted chunk extension",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1;a=\"b\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "an empty chunk extension between two",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1;;a\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "an empty last chunk extension",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1;a;\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "a tab in a chunk extension",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1;a\t=b\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "a bare CR in a chunk extension",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1;a=\"\r\"\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "chunked HTTP/1.0",
                 bytes: "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n"),
            Case(testDescription: "obs-fold in trailers",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n0\r\nX-A: 1\r\n 2\r\n\r\n"),
            Case(testDescription: "a Transfer-Encoding trailer",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n0\r\nTransfer-Encoding: gzip\r\n\r\n"),
            Case(testDescription: "a chunked body cut short", bytes: ok + "Transfer-Encoding: chunked\r\n\r\n5\r\nab"),
            Case(testDescription: "a chunked body without its last chunk",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n1\r\nx\r\n"),
            Case(testDescription: "trailers cut short",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n0\r\nX-A: 1\r\n"),
            Case(testDescription: "a trailer that is not a field",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n0\r\nnot a field\r\n\r\n"),
            Case(testDescription: "a Content-Length trailer",
                 bytes: ok + "Transfer-Encoding: chunked\r\n\r\n0\r\nContent-Length: 5\r\n\r\n"),
            // Bad lines and characters.
            Case(testDescription: "a bare LF after the status line",
                 bytes: "HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "a bare LF after a field", bytes: ok + "Content-Length: 0\n\r\n"),
            Case(testDescription: "bare LFs throughout", bytes: "HTTP/1.1 200 OK\nContent-Length: 2\n\n{}"),
            Case(testDescription: "a bare CR in a value", bytes: ok + "X-A: a\rb\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "a bare CR ending the head", bytes: ok + "Content-Length: 0\r\n\r\r\n"),
            Case(testDescription: "NUL in a value", bytes: ok + "X-A: a\u{0}b\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "a control character in a value",
                 bytes: ok + "X-A: a\u{1}b\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "DEL in a value", bytes: ok + "X-A: a\u{7F}b\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "obs-fold", bytes: ok + "X-A: a\r\n b\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "obs-fold of a length", bytes: ok + "Content-Length:\r\n 2\r\n\r\n{}"),
            Case(testDescription: "a space before the first field", bytes: ok + " X-A: a\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "a space before a colon", bytes: ok + "Content-Length : 2\r\n\r\n{}"),
            Case(testDescription: "a field without a colon",
                 bytes: ok + "Content-Type application/json\r\nContent-Length: 2\r\n\r\n{}"),
            Case(testDescription: "an empty field name", bytes: ok + ": a\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "a field name that is not a token",
                 bytes: ok + "X(A): a\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "a field name with NUL", bytes: ok + "X\u{0}A: a\r\nContent-Length: 0\r\n\r\n"),
            // Bad status lines.
            Case(testDescription: "a status that is not a number",
                 bytes: "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "a two-digit status", bytes: "HTTP/1.1 20 OK\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "a four-digit status", bytes: "HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "two spaces before the status",
                 bytes: "HTTP/1.1  200 OK\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "HTTP/2.0", bytes: "HTTP/2.0 200 OK\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "HTTP/1.2", bytes: "HTTP/1.2 200 OK\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "HTTP/0.9", bytes: "HTTP/0.9 200 OK\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "a lower-case protocol", bytes: "http/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"),
            Case(testDescription: "not HTTP", bytes: "SMTP ready\r\n\r\n"),
            // Where the gateway is stricter: llhttp takes RTSP for HTTP, and any byte in a reason phrase.
            Case(testDescription: "RTSP", bytes: "RTSP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", stricter: [.error]),
            Case(testDescription: "a control character in the reason phrase",
                 bytes: "HTTP/1.1 200 O\u{1}K\r\nContent-Length: 0\r\n\r\n", stricter: [.error]),
            Case(testDescription: "NUL in the reason phrase",
                 bytes: "HTTP/1.1 200 O\u{0}K\r\nContent-Length: 0\r\n\r\n",
                 stricter: [.error]),
            Case(testDescription: "a head cut short", bytes: ok + "Content-Length: 2\r\n"),
            Case(testDescription: "a status line cut short", bytes: "HTTP/1.1 20"),
            Case(testDescription: "nothing", bytes: ""),
        ]
        // The field limit (80 KiB of names and values): at it, and one byte over it.
        let name = "X-Big"
        let atLimit = String(repeating: "a", count: UpstreamResponseDecoder.maxFieldBytes - name.count
                                - "Content-Length".count - 1)
        cases.append(Case(testDescription: "fields at the size limit",
                          bytes: ok + "\(name): \(atLimit)\r\nContent-Length: 0\r\n\r\n"))
        cases.append(Case(testDescription: "a long chunk extension after long fields",
                          bytes: ok + "\(name): \(atLimit.dropLast(10))\r\nTransfer-Encoding: chunked\r\n\r\n"
                              + "1;a=\(String(repeating: "b", count: 4096))\r\nx\r\n0\r\n\r\n"))
        cases.append(Case(testDescription: "fields over the size limit",
                          bytes: ok + "\(name): \(atLimit)a\r\nContent-Length: 0\r\n\r\n"))
        return cases
    }()
}
