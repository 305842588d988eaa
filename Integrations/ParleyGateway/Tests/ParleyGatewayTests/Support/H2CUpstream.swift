import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import Synchronization

/// An HTTP/2 upstream over cleartext by prior knowledge on 127.0.0.1 (NIO's HTTP/2 server), for the
/// tests of `upstream_protocol: h2c`. It speaks nothing else. By path:
/// - `/big/N`: N bytes of body, written only while the stream is writable; ``sent`` counts them;
/// - `/slow`: `{"ok":true}` after 300 ms; ``mostAtOnce`` is the most streams open at once on one connection;
/// - `/never`: no answer;
/// - `/reset/N`: a head saying 1 MB, N bytes of body, then `RST_STREAM`;
/// - `/goaway`: `{"ok":true}`, then `GOAWAY` naming this stream the last, and the connection closes
///   100 ms later;
/// - `/refused-once`: the first time, `GOAWAY` naming no stream processed (this one refused) and
///   the connection closes 100 ms later; then as `/echo`;
/// - anything else: the request as JSON (`method`, `path`, `body`, `via`, `length`).
final class H2CUpstream: Sendable {
    let url: URL
    private let server: any Channel
    private let counters: Counters

    private final class Counters: Sendable {
        let connections = Atomic<Int>(0)
        let streams = Atomic<Int>(0)
        let mostAtOnce = Atomic<Int>(0)
        let sent = Atomic<Int>(0)
        let refused = Atomic<Bool>(false)
    }

    /// Connections accepted so far.
    var connections: Int { counters.connections.load(ordering: .relaxed) }
    /// Streams opened so far.
    var streams: Int { counters.streams.load(ordering: .relaxed) }
    var mostAtOnce: Int { counters.mostAtOnce.load(ordering: .relaxed) }
    var sent: Int { counters.sent.load(ordering: .relaxed) }

    private init(server: any Channel, counters: Counters) {
        self.server = server
        self.counters = counters
        self.url = URL(string: "http://127.0.0.1:\(server.localAddress?.port ?? 0)")!
    }

    static func with<Result: Sendable>(_ body: (H2CUpstream) async throws -> Result) async throws -> Result {
        let counters = Counters()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                counters.connections.add(1, ordering: .relaxed)
                let open = OpenStreams()
                return channel.eventLoop.makeCompletedFuture {
                    _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                        mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                    ) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            counters.streams.add(1, ordering: .relaxed)
                            let now = open.count.add(1, ordering: .relaxed).newValue
                            counters.mostAtOnce.max(now, ordering: .relaxed)
                            stream.closeFuture.whenComplete { _ in open.count.subtract(1, ordering: .relaxed) }
                            try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                            try stream.pipeline.syncOperations.addHandler(H2CUpstreamStream(counters: counters))
                        }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let upstream = H2CUpstream(server: server, counters: counters)
        let result: Swift.Result<Result, any Error>
        do { result = .success(try await body(upstream)) } catch { result = .failure(error) }
        try? await server.close()
        return try result.get()
    }

    /// The streams open on one connection.
    private final class OpenStreams: Sendable {
        let count = Atomic<Int>(0)
    }

    /// One stream of a connection.
    private final class H2CUpstreamStream: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let counters: Counters
        private var head: HTTPRequestHead?
        private var body: [UInt8] = []
        /// Body bytes of `/big` still to write.
        private var left = 0
        private let chunk = ByteBuffer(bytes: (0..<16_384).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

        init(counters: Counters) { self.counters = counters }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): self.head = head
            case .body(let buffer): body += buffer.readableBytesView
            case .end: answer(context)
            }
        }

        func channelWritabilityChanged(context: ChannelHandlerContext) {
            pump(context)
            context.fireChannelWritabilityChanged()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }

        private func answer(_ context: ChannelHandlerContext) {
            guard let head else { return }
            let path = head.uri
            if path.hasPrefix("/big/") {
                left = Int(path.dropFirst(5)) ?? 0
                write(context, status: .ok, type: "application/octet-stream", length: left)
                pump(context)
            } else if path == "/slow" {
                context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(300)) { [self] in
                    respond(context, Array(#"{"ok":true}"#.utf8))
                }
            } else if path == "/never" {
                return
            } else if path.hasPrefix("/reset/") {
                write(context, status: .ok, type: "application/octet-stream", length: 1_000_000)
                let count = Int(path.dropFirst(7)) ?? 0
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(repeating: 0x62, count: count)))),
                                      promise: nil)
                context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(50)) { context.close(promise: nil) }
            } else if path == "/goaway" {
                respond(context, Array(#"{"ok":true}"#.utf8))
                goAway(context, last: streamID(context))
            } else if path == "/refused-once", !counters.refused.exchange(true, ordering: .relaxed) {
                goAway(context, last: .rootStream)
            } else {
                echo(context, head)
            }
        }

        private func echo(_ context: ChannelHandlerContext, _ head: HTTPRequestHead) {
            let object: [String: Any] = [
                "method": head.method.rawValue, "path": head.uri, "body": String(decoding: body, as: UTF8.self),
                "via": head.headers["via"].joined(separator: ", "),
                "length": head.headers["content-length"].first ?? "",
            ]
            let bytes = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            respond(context, Array(bytes))
        }

        private func respond(_ context: ChannelHandlerContext, _ bytes: [UInt8]) {
            write(context, status: .ok, type: "application/json", length: bytes.count)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        private func write(_ context: ChannelHandlerContext, status: HTTPResponseStatus, type: String, length: Int) {
            let fields = HTTPHeaders([("content-type", type), ("content-length", String(length))])
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http2, status: status, headers: fields))),
                          promise: nil)
        }

        /// Writes `/big`'s body while the stream takes it.
        private func pump(_ context: ChannelHandlerContext) {
            guard left > 0 else { return }
            while left > 0, context.channel.isWritable {
                let size = min(left, chunk.readableBytes)
                left -= size
                counters.sent.add(size, ordering: .relaxed)
                context.write(wrapOutboundOut(.body(.byteBuffer(chunk.getSlice(at: 0, length: size)!))), promise: nil)
            }
            if left == 0 { context.write(wrapOutboundOut(.end(nil)), promise: nil) }
            context.flush()
        }

        private func streamID(_ context: ChannelHandlerContext) -> HTTP2StreamID {
            (try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)) ?? .rootStream
        }

        /// Sends `GOAWAY` naming `last` on the stream's connection, and closes it 100 ms later.
        private func goAway(_ context: ChannelHandlerContext, last: HTTP2StreamID) {
            guard let connection = context.channel.parent else { return }
            let frame = HTTP2Frame(streamID: .rootStream,
                                   payload: .goAway(lastStreamID: last, errorCode: .noError, opaqueData: nil))
            connection.writeAndFlush(frame, promise: nil)
            connection.eventLoop.scheduleTask(in: .milliseconds(100)) { connection.close(promise: nil) }
        }
    }
}
