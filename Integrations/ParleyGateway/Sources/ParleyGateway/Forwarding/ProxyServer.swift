import Logging
import NIOConcurrencyHelpers
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
    /// connection to close, at most the drain timeout (then closes those still open, logging how
    /// many), and closes the pooled upstream connections.
    func run(host: String, port: Int, onBound: @Sendable (Int) async -> Void) async throws {
        let quiesce = ServerQuiescingHelper(group: group)
        let shared = self.shared
        let connections = ConnectionPipeline(shared: shared)
        let open = OpenConnections()
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
                open.add(channel)
                return channel.eventLoop.makeCompletedFuture { try connections.configure(channel) }
            }
            .bind(host: host, port: port).get()
        await onBound(server.localAddress?.port ?? 0)
        let drained = group.any().makePromise(of: Void.self)
        await withTaskCancellationOrGracefulShutdownHandler {
            try? await server.closeFuture.get()
        } onCancelOrGracefulShutdown: {
            quiesce.initiateShutdown(promise: drained)
        }
        let drainTimeout = shared.configuration.drainTimeout
        let logger = shared.observer.logger
        let deadline = group.any().scheduleTask(in: .nanoseconds(drainTimeout.nanoseconds)) {
            let cut = open.closeAll()
            guard cut > 0 else { return }
            logger.warning("drain timeout passed: closed the connections still open",
                           metadata: ["connections": "\(cut)", "drain_timeout": "\(drainTimeout)"])
        }
        try? await drained.futureResult.get()
        deadline.cancel()
        await shared.pools.shutdown()
    }
}

/// The main port's client connections still open, for the drain timeout to close.
private final class OpenConnections: Sendable {
    private let channels = NIOLockedValueBox([ObjectIdentifier: any Channel]())

    /// Holds `channel` until it closes.
    func add(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        channels.withLockedValue { $0[id] = channel }
        channel.closeFuture.whenComplete { [channels] _ in channels.withLockedValue { $0[id] = nil } }
    }

    /// Closes every connection still open; how many there were.
    func closeAll() -> Int {
        let open = channels.withLockedValue { Array($0.values) }
        for channel in open { channel.close(promise: nil) }
        return open.count
    }
}
