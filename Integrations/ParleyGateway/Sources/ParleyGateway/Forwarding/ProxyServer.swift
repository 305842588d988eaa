import NIOCore
import NIOExtras
import NIOPosix
import ServiceLifecycle

/// The main port: a listener whose connections each get a ``ConnectionPipeline`` (HTTP/1.1 or h2c,
/// each request through a ``RequestHeadGuard`` and a ``ProxyHandler``), on the event loop that
/// accepted them.
struct ProxyServer {
    let shared: ForwardingContext
    let group: any EventLoopGroup

    /// Listens on `host:port`, reports the bound port to `onBound`, and serves until graceful
    /// shutdown (or cancellation); then stops accepting, lets each connection finish the request
    /// in flight (an h2c connection gets `GOAWAY` and finishes its open streams), waits for every
    /// connection to close, and closes the pooled upstream connections.
    func run(host: String, port: Int, onBound: @Sendable (Int) async -> Void) async throws {
        let quiesce = ServerQuiescingHelper(group: group)
        let shared = self.shared
        let connections = ConnectionPipeline(shared: shared)
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiesce.makeServerChannelHandler(channel: channel))
                }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: false)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try connections.configure(channel) }
            }
            .bind(host: host, port: port).get()
        await onBound(server.localAddress?.port ?? 0)
        let drained = group.any().makePromise(of: Void.self)
        await withTaskCancellationOrGracefulShutdownHandler {
            try? await server.closeFuture.get()
        } onCancelOrGracefulShutdown: {
            quiesce.initiateShutdown(promise: drained)
        }
        try? await drained.futureResult.get()
        await shared.pools.shutdown()
    }
}
