import NIOCore
import NIOExtras
import NIOHTTP1
import NIOHTTPTypesHTTP1
import NIOPosix
import ServiceLifecycle

/// The main port: a listener whose connections each get the HTTP/1.1 server pipeline, the
/// ``RequestHeadGuard`` and a ``ProxyHandler``, on the event loop that accepted them.
struct ProxyServer {
    let shared: ForwardingContext
    let group: any EventLoopGroup

    /// Listens on `host:port`, reports the bound port to `onBound`, and serves until graceful
    /// shutdown (or cancellation); then stops accepting, lets each connection finish the request
    /// in flight, waits for every connection to close, and closes the pooled upstream connections.
    func run(host: String, port: Int, onBound: @Sendable (Int) async -> Void) async throws {
        let quiesce = ServerQuiescingHelper(group: group)
        let shared = self.shared
        let configuration = shared.configuration
        let headerTimeout = TimeAmount.nanoseconds(configuration.headerTimeout.nanoseconds)
        let bodyTimeout = TimeAmount.nanoseconds(configuration.bodyTimeout.nanoseconds)
        let policy = RequestHeadPolicy(trustedProxies: configuration.trustedProxies)
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = configuration.maxHeaderBytes
        limits.maxHeaderListSize = configuration.maxHeaderBytes
        limits.maxHeaderFieldCount = 1000
        let decoderLimits = limits
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
                channel.eventLoop.makeCompletedFuture {
                    guard let pool = shared.pools.pool(for: channel.eventLoop) else {
                        throw ChannelError.ioOnClosedChannel
                    }
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false,
                                                             withOutboundHeaderValidation: false,
                                                             withEncoderConfiguration: .init(),
                                                             withDecoderLimitConfiguration: decoderLimits)
                    try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                    try pipeline.addHandler(RequestHeadGuard(timeout: headerTimeout, bodyTimeout: bodyTimeout,
                                                             policy: policy))
                    try pipeline.addHandler(ProxyHandler(shared: shared, pool: pool))
                }
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
