import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import Synchronization

/// An HTTP/2 client over cleartext by prior knowledge (NIO's own HTTP/2 stack): one connection,
/// a stream per request, each stream's frames read as HTTP/1-style parts. It records the
/// `GOAWAY` frames the server sends.
final class H2CClient: Sendable {
    let channel: any Channel
    private let multiplexer: NIOHTTP2Handler.StreamMultiplexer
    private let goAways: GoAwayRecorder

    private init(channel: any Channel, multiplexer: NIOHTTP2Handler.StreamMultiplexer, goAways: GoAwayRecorder) {
        self.channel = channel
        self.multiplexer = multiplexer
        self.goAways = goAways
    }

    /// Connects to 127.0.0.1:`port` and sends the connection preface. With `holdingServerBytes`, what
    /// the server sends waits unread until ``readServerBytes()`` (the client acknowledges no SETTINGS
    /// before that).
    static func connect(port: Int, holdingServerBytes: Bool = false) async throws -> H2CClient {
        let recorder = GoAwayRecorder()
        let (channel, multiplexer) = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if holdingServerBytes { try pipeline.addHandler(InboundGate()) }
                    let multiplexer = try pipeline.configureHTTP2Pipeline(
                        mode: .client, connectionConfiguration: .init(), streamConfiguration: .init()
                    ) { stream in stream.eventLoop.makeSucceededVoidFuture() }
                    try pipeline.addHandler(recorder)
                    return (channel, multiplexer)
                }
            }
        return H2CClient(channel: channel, multiplexer: multiplexer, goAways: recorder)
    }

    /// Passes on what the server sent since a connection made `holdingServerBytes`, and reads on.
    func readServerBytes() async throws {
        let channel = self.channel
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: InboundGate.self).open()
        }.get()
    }

    /// The last-stream IDs of the `GOAWAY` frames received so far.
    var goAwayStreamIDs: [Int] { goAways.received.withLockedValue { $0 } }

    /// Opens a stream whose response goes to the returned ``H2CStream``; `autoRead` false leaves
    /// its window closed until the test reads.
    func open(autoRead: Bool = true) async throws -> H2CStream {
        let collector = ResponseCollector(eventLoop: channel.eventLoop)
        let stream = try await multiplexer.createStreamChannel { stream in
            stream.eventLoop.makeCompletedFuture {
                try stream.syncOptions?.setOption(ChannelOptions.autoRead, value: autoRead)
                try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: .http))
                try stream.pipeline.syncOperations.addHandler(collector)
            }
        }.get()
        return H2CStream(channel: stream, collector: collector)
    }

    /// Sends one whole request on a new stream and waits for the whole answer.
    func send(_ method: HTTPMethod = .GET, _ path: String, headers: [(String, String)] = [],
              body: [UInt8]? = nil) async throws -> Answer {
        let stream = try await open()
        do {
            try await stream.sendHead(method, path, headers: headers, bodyLength: body?.count)
            if let body, !body.isEmpty { try await stream.sendBody(body) }
            try await stream.end()
        } catch {
            // An answer that came before the body ended resets the stream: the answer is what counts.
        }
        return try await stream.answer()
    }

    func close() async {
        try? await channel.close()
    }
}

/// Runs `body` with a client connected to 127.0.0.1:`port`, and closes it however `body` ends.
func withH2CClient<Result: Sendable>(port: Int, holdingServerBytes: Bool = false,
                                     _ body: (H2CClient) async throws -> Result) async throws -> Result {
    let client = try await H2CClient.connect(port: port, holdingServerBytes: holdingServerBytes)
    do {
        let result = try await body(client)
        await client.close()
        return result
    } catch {
        await client.close()
        throw error
    }
}

/// One request stream of an ``H2CClient``.
struct H2CStream: Sendable {
    let channel: any Channel
    fileprivate let collector: ResponseCollector

    func sendHead(_ method: HTTPMethod, _ path: String, headers: [(String, String)] = [],
                  bodyLength: Int? = nil) async throws {
        var fields = HTTPHeaders([("host", "gateway")] + headers)
        if let bodyLength { fields.replaceOrAdd(name: "content-length", value: String(bodyLength)) }
        let head = HTTPRequestHead(version: .http1_1, method: method, uri: path, headers: fields)
        try await channel.writeAndFlush(HTTPClientRequestPart.head(head))
    }

    func sendBody(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: bytes))))
    }

    func end() async throws {
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil))
    }

    /// Resets the stream (`RST_STREAM` with `CANCEL`).
    func reset() async {
        try? await channel.close()
    }

    /// Lets a stream opened with `autoRead` false read on.
    func readOn() async throws {
        try await channel.setOption(ChannelOptions.autoRead, value: true).get()
        channel.read()
    }

    /// The whole answer, once the stream ends; throws when it is reset or closed first, or when it
    /// has not ended within `limit`.
    func answer(within limit: TimeAmount = .seconds(10)) async throws -> Answer {
        let done = collector.done
        let timer = channel.eventLoop.scheduleTask(in: limit) { done.fail(ChannelError.operationUnsupported) }
        defer { timer.cancel() }
        return try await done.futureResult.get()
    }

    /// Response body bytes received so far.
    var bodyBytesReceived: Int { collector.bytes.load(ordering: .relaxed) }
}

/// Collects a stream's response.
private final class ResponseCollector: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPClientResponsePart

    let done: EventLoopPromise<Answer>
    let bytes = Atomic<Int>(0)
    private let partial = NIOLockedValueBox<Answer>(Answer(status: 0, headers: [:], body: []))

    init(eventLoop: any EventLoop) {
        self.done = eventLoop.makePromise()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head) where head.status.code >= 200:
            partial.withLockedValue {
                $0.status = Int(head.status.code)
                $0.headers = head.headers
            }
        case .head:
            break
        case .body(let buffer):
            bytes.add(buffer.readableBytes, ordering: .relaxed)
            // The bytes are counted; at most 16 MiB of them are kept.
            partial.withLockedValue { if $0.body.count < 16 << 20 { $0.body += buffer.readableBytesView } }
        case .end:
            done.succeed(partial.withLockedValue { $0 })
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        done.fail(ChannelError.eof)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        done.fail(error)
    }
}

/// Records the connection's `GOAWAY` frames.
private final class GoAwayRecorder: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTP2Frame

    let received = NIOLockedValueBox<[Int]>([])

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .goAway(let last, _, _) = unwrapInboundIn(data).payload {
            received.withLockedValue { $0.append(Int(last)) }
        }
        context.fireChannelRead(data)
    }
}

/// Holds a connection's inbound bytes until ``open()``, on the connection's event loop.
private final class InboundGate: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var held: [NIOAny] = []
    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if self.context == nil { context.fireChannelRead(data) } else { held.append(data) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if self.context == nil { context.fireChannelReadComplete() }
    }

    func channelInactive(context: ChannelHandlerContext) {
        open()
        context.fireChannelInactive()
    }

    func open() {
        guard let context else { return }
        self.context = nil
        for data in held { context.fireChannelRead(data) }
        held = []
        context.fireChannelReadComplete()
    }
}
