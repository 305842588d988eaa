#if canImport(CNIOLinux)
internal import CNIOLinux   // defines `NIOLinger`'s initializer on Linux
#endif
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A raw TCP connection to a server under test (NIOPosix `ClientBootstrap`), for what no HTTP
/// client sends: heads trickled a byte at a time, oversized or malformed heads, pipelined
/// requests in one write, uploads abandoned half way.
///
/// It collects everything the server sends and notes when the server closes; ``responses(_:within:)``
/// splits the bytes into HTTP/1.1 responses (bodies framed by `Content-Length`).
final class RawConnection: Sendable {
    private let channel: any Channel
    private let inbox: Inbox

    private init(channel: any Channel, inbox: Inbox) {
        self.channel = channel
        self.inbox = inbox
    }

    /// Connects to `host`:`port`; with `reading` false it reads nothing until ``startReading()``
    /// (a client that stops reading its answer).
    static func open(host: String = "127.0.0.1", port: Int, reading: Bool = true) async throws -> RawConnection {
        let inbox = Inbox()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: reading)
            .channelOption(.socketOption(.so_rcvbuf), value: reading ? 131_072 : 16_384)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(inbox: inbox))
                }
            }
            .connect(host: host, port: port).get()
        return RawConnection(channel: channel, inbox: inbox)
    }

    /// Writes `bytes` and flushes them; throws when the connection is closed.
    func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(bytes: bytes))
    }

    /// Starts reading (after `open(port:reading: false)`).
    func startReading() async throws {
        try await channel.setOption(.autoRead, value: true).get()
        channel.read()
    }

    /// Reads once what has arrived (after `open(port:reading: false)`): a client that reads at a
    /// pace of its own.
    func readOnce() { channel.read() }

    /// Writes `text` as UTF-8.
    func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    /// Whether the server has closed the connection (or reset it).
    var isClosed: Bool { inbox.snapshot.closed }

    /// Everything received so far.
    var received: [UInt8] { inbox.snapshot.bytes }

    /// Waits until the server closes the connection, at most `limit`; whether it did.
    func waitForClose(within limit: Duration) async -> Bool {
        await inbox.wait(within: limit) { $0.closed }.closed
    }

    /// Waits for `count` whole responses or the connection's end, at most `limit`; returns the
    /// whole responses received, in order.
    func responses(_ count: Int, within limit: Duration) async -> [RawResponse] {
        let state = await inbox.wait(within: limit) { $0.closed || RawResponse.parse($0.bytes).count >= count }
        return RawResponse.parse(state.bytes)
    }

    /// Closes the connection: a clean FIN, or with `reset` an RST (`SO_LINGER` 0).
    func close(reset: Bool = false) async {
        if reset, let options = channel as? any SocketOptionProvider {
            try? await options.setSoLinger(NIOLinger(l_onoff: 1, l_linger: 0)).get()
        }
        try? await channel.close()
    }
}

/// One response read off a raw connection.
struct RawResponse: Sendable {
    var status: Int
    var fields: [(name: String, value: String)]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    func field(_ name: String) -> String? { fields.first { $0.name.lowercased() == name.lowercased() }?.value }

    /// The responses at the start of `bytes` (1xx ones included, without a body), bodies framed
    /// by `Content-Length` or chunked (a body with neither runs to the end). A last response whose
    /// body is cut short is left out, or with `partial` included with the body bytes that did arrive.
    static func parse(_ bytes: [UInt8], partial: Bool = false) -> [RawResponse] {
        var responses: [RawResponse] = []
        var rest = bytes[...]
        while let end = rest.firstRange(of: [13, 10, 13, 10]) {
            let lines = String(decoding: rest[..<end.lowerBound], as: UTF8.self)
                .split(separator: "\r\n", omittingEmptySubsequences: false)
            guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1."),
                  let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else { break }
            let fields = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
            }
            var response = RawResponse(status: status, fields: fields, body: [])
            rest = rest[end.upperBound...]
            if (100..<200).contains(status) {
                // An interim answer: no body, the final one follows.
            } else if let length = response.field("Content-Length").flatMap(Int.init) {
                let available = min(length, rest.count)
                response.body = Array(rest.prefix(available))
                rest = rest.dropFirst(available)
                guard available == length else {
                    if partial { responses.append(response) }
                    break
                }
            } else if response.field("Transfer-Encoding")?.lowercased() == "chunked" {
                guard let (body, after) = dechunk(rest) else {
                    if partial { responses.append(response) }
                    break
                }
                response.body = body
                rest = after
            } else {
                response.body = Array(rest)
                rest = rest[rest.endIndex...]
            }
            responses.append(response)
        }
        return responses
    }

    /// A whole chunked body (RFC 9112 §7.1, no trailers) and what follows it, or `nil` when it is
    /// not all there.
    private static func dechunk(_ bytes: ArraySlice<UInt8>) -> ([UInt8], ArraySlice<UInt8>)? {
        var body: [UInt8] = []
        var rest = bytes
        while let lineEnd = rest.firstRange(of: [13, 10]) {
            let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self).prefix { $0 != ";" }
            guard let size = Int(sizeText, radix: 16) else { return nil }
            rest = rest[lineEnd.upperBound...]
            guard rest.count >= size + 2 else { return nil }
            body.append(contentsOf: rest.prefix(size))
            rest = rest.dropFirst(size + 2)
            if size == 0 { return (body, rest) }
        }
        return nil
    }
}

/// What a raw connection received, shared between its channel handler and the test.
private final class Inbox: Sendable {
    struct State: Sendable {
        var bytes: [UInt8] = []
        var closed = false
    }

    private let state = NIOLockedValueBox(State())

    var snapshot: State { state.withLockedValue { $0 } }

    func append(_ bytes: ByteBufferView) { state.withLockedValue { $0.bytes.append(contentsOf: bytes) } }
    func markClosed() { state.withLockedValue { $0.closed = true } }

    /// Polls every 5 ms until `condition` holds or `limit` passes; the last state either way.
    func wait(within limit: Duration, until condition: (State) -> Bool) async -> State {
        let deadline = ContinuousClock.now + limit
        while true {
            let current = snapshot
            if condition(current) || ContinuousClock.now >= deadline { return current }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

private final class Collector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let inbox: Inbox

    init(inbox: Inbox) { self.inbox = inbox }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        inbox.append(unwrapInboundIn(data).readableBytesView)
    }

    func channelInactive(context: ChannelHandlerContext) {
        inbox.markClosed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)   // a reset: the connection is over
    }
}
