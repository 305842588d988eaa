// nio-byte-relay: the floor under any proxy built on SwiftNIO, for `make gateway-bench`.
//
// Each client connection gets an upstream connection of its own on the same event loop, and the
// two are joined byte for byte (swift-nio's `GlueHandler` pattern): no HTTP parsing, no pool, no
// log. Its CPU per request is what the event loop and the kernel's loopback TCP cost on the machine
// at hand, so the benchmark shows how much of the gateway's cost is its own work.
//
//     nio-byte-relay UPSTREAM_PORT     (prints "listening on http://127.0.0.1:PORT")
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import NIOCore
import NIOPosix

/// One side of a joined pair: what its channel reads, the partner's channel writes. Reads wait
/// while the partner's channel cannot take writes, so neither side buffers what the other has
/// not taken.
final class GlueHandler: ChannelDuplexHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var partner: GlueHandler?
    private var context: ChannelHandlerContext?
    private var readPending = false

    static func pair() -> (GlueHandler, GlueHandler) {
        let first = GlueHandler(), second = GlueHandler()
        first.partner = second
        second.partner = first
        return (first, second)
    }

    private var partnerIsWritable: Bool { partner?.context?.channel.isWritable ?? false }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) { partner?.context?.write(data, promise: nil) }

    func channelReadComplete(context: ChannelHandlerContext) { partner?.context?.flush() }

    func channelInactive(context: ChannelHandlerContext) { partner?.context?.close(promise: nil) }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        guard context.channel.isWritable, let partner, partner.readPending else { return }
        partner.readPending = false
        partner.context?.read()
    }

    func read(context: ChannelHandlerContext) {
        if partnerIsWritable {
            context.read()
        } else {
            readPending = true
        }
    }
}

/// Writes `text` to a file descriptor unbuffered (the benchmark waits for the ready line on a pipe).
func say(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    _ = text.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
}

guard CommandLine.arguments.count == 2, let upstreamPort = Int(CommandLine.arguments[1]) else {
    say("usage: nio-byte-relay UPSTREAM_PORT\n", to: STDERR_FILENO)
    exit(2)
}
let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .serverChannelOption(.backlog, value: 256)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { client in
        // The initializer's future gates the client's first read: nothing is read before the join.
        ClientBootstrap(group: client.eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: "127.0.0.1", port: upstreamPort)
            .flatMapThrowing { upstream in
                let (clientSide, upstreamSide) = GlueHandler.pair()
                try client.pipeline.syncOperations.addHandler(clientSide)
                try upstream.pipeline.syncOperations.addHandler(upstreamSide)
            }
    }
    .bind(host: "127.0.0.1", port: 0)
    .get()
say("listening on http://127.0.0.1:\(server.localAddress?.port ?? 0)\n")
try await server.closeFuture.get()
