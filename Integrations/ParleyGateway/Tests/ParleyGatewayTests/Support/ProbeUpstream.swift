import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A raw HTTP/1.1 upstream on 127.0.0.1 that counts what crosses it, for the tests of flow
/// control and stream resets. By path:
/// - `/big/N`: N bytes of body, written only while the connection is writable; ``sent`` counts them;
/// - `/sink`: reads the request body and never answers; ``sunk`` counts its bytes;
/// - `/slow`: answers after 300 ms; ``mostInFlight`` is the most such requests open at once;
/// - anything else: `{"ok":true}` at once. Connections are kept alive.
///
/// With a `capacity`, connections past the first `capacity` are accepted and never read (a
/// server whose workers are all busy).
final class ProbeUpstream: Sendable {
    let url: URL
    private let server: any Channel
    let counters: Counters

    final class Counters: Sendable {
        let sent = Atomic<Int>(0)
        let sunk = Atomic<Int>(0)
        let closed = Atomic<Int>(0)
        let inFlight = Atomic<Int>(0)
        let mostInFlight = Atomic<Int>(0)
        let accepted = Atomic<Int>(0)
    }

    private init(server: any Channel, counters: Counters) {
        self.server = server
        self.counters = counters
        self.url = URL(string: "http://127.0.0.1:\(server.localAddress?.port ?? 0)")!
    }

    var sent: Int { counters.sent.load(ordering: .relaxed) }
    var sunk: Int { counters.sunk.load(ordering: .relaxed) }
    /// Connections the upstream has seen close.
    var closed: Int { counters.closed.load(ordering: .relaxed) }
    var mostInFlight: Int { counters.mostInFlight.load(ordering: .relaxed) }
    /// Connections accepted so far.
    var accepted: Int { counters.accepted.load(ordering: .relaxed) }

    static func with<Result: Sendable>(capacity: Int = .max,
                                       _ body: (ProbeUpstream) async throws -> Result) async throws -> Result {
        let counters = Counters()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let index = counters.accepted.add(1, ordering: .relaxed).newValue
                return channel.eventLoop.makeCompletedFuture {
                    guard index <= capacity else {
                        try channel.syncOptions?.setOption(.autoRead, value: false)
                        return
                    }
                    try channel.pipeline.syncOperations.addHandler(ProbeHandler(counters: counters))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let upstream = ProbeUpstream(server: server, counters: counters)
        let result: Swift.Result<Result, any Error>
        do { result = .success(try await body(upstream)) } catch { result = .failure(error) }
        try? await server.close()
        return try result.get()
    }
}

private final class ProbeHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let counters: ProbeUpstream.Counters
    private var received: [UInt8] = []
    private var sinking = false
    /// Body bytes of `/big` still to write.
    private var left = 0
    private let chunk = ByteBuffer(bytes: (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

    init(counters: ProbeUpstream.Counters) { self.counters = counters }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if sinking {
            counters.sunk.add(buffer.readableBytes, ordering: .relaxed)
            return
        }
        received.append(contentsOf: buffer.readableBytesView)
        answerNextHead(context)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        pump(context)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        counters.closed.add(1, ordering: .relaxed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func answerNextHead(_ context: ChannelHandlerContext) {
        guard left == 0, let end = headEnd() else { return }
        let head = String(decoding: received[..<end], as: UTF8.self)
        received.removeFirst(end + 4)
        let path = String(head.split(separator: "\r\n").first?.split(separator: " ").dropFirst().first ?? "/")
        if path.hasPrefix("/big/") {
            left = Int(path.dropFirst(5)) ?? 0
            write("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(left)\r\n\r\n",
                  context)
            pump(context)
        } else if path == "/sink" {
            sinking = true
            counters.sunk.add(received.count, ordering: .relaxed)
            received = []
        } else if path == "/slow" {
            let now = counters.inFlight.add(1, ordering: .relaxed).newValue
            counters.mostInFlight.max(now, ordering: .relaxed)
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(300)) { [self] in
                counters.inFlight.subtract(1, ordering: .relaxed)
                ok(context)
            }
        } else {
            ok(context)
        }
    }

    private func ok(_ context: ChannelHandlerContext) {
        write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}", context)
        answerNextHead(context)
    }

    private func write(_ text: String, _ context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
    }

    /// Writes `/big`'s body while the connection takes it.
    private func pump(_ context: ChannelHandlerContext) {
        while left > 0, context.channel.isWritable {
            let size = min(left, chunk.readableBytes)
            left -= size
            counters.sent.add(size, ordering: .relaxed)
            context.write(wrapOutboundOut(chunk.getSlice(at: 0, length: size)!), promise: nil)
        }
        context.flush()
        if left == 0 { answerNextHead(context) }
    }

    private func headEnd() -> Int? {
        guard received.count >= 4 else { return nil }
        for index in 0...(received.count - 4) where received[index] == 13 && received[index + 1] == 10
            && received[index + 2] == 13 && received[index + 3] == 10 {
            return index
        }
        return nil
    }
}
