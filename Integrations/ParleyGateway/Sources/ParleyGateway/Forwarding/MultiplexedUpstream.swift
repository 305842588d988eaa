import HTTPTypes
import NIOCore
import NIOHTTP2
import NIOHTTPTypesHTTP2
import NIOPosix

/// One h2c connection to an upstream (HTTP/2 by prior knowledge), owned by an ``UpstreamPool`` on
/// its event loop: each exchange gets a stream of its own, as an ``UpstreamConnection`` handler on
/// the stream's channel, so the exchange drives it as it drives an HTTP/1.1 connection. The
/// stream's flow-control window is the backpressure: while the exchange's client cannot take
/// writes, the stream is not read and the upstream's window stays shut.
final class MultiplexedUpstream {
    /// The most streams the gateway opens at once on one connection; more open another connection.
    /// (NIO also holds back streams over the upstream's own `SETTINGS_MAX_CONCURRENT_STREAMS`.)
    static let maxOpenStreams = 100

    let key: UpstreamKey
    let channel: any Channel
    private let multiplexer: NIOHTTP2Handler.StreamMultiplexer
    /// Streams open now.
    private(set) var openStreams = 0
    /// Streams opened since the connection was made.
    private(set) var streamsOpened = 0
    /// The last stream the upstream's `GOAWAY` said it may process, once it sent one: the
    /// connection then takes no new stream, and streams after that one were refused unprocessed.
    var goAwayLastStreamID: HTTP2StreamID?

    init(key: UpstreamKey, channel: any Channel, multiplexer: NIOHTTP2Handler.StreamMultiplexer) {
        self.key = key
        self.channel = channel
        self.multiplexer = multiplexer
    }

    /// Whether another exchange may open a stream here.
    var takesStreams: Bool { channel.isActive && goAwayLastStreamID == nil && openStreams < Self.maxOpenStreams }

    /// Opens a stream and hands `body` its ``UpstreamConnection`` (whose ``UpstreamConnection/served``
    /// counts the streams opened before it), or why there is none.
    func openStream(_ body: @escaping (Result<UpstreamConnection, any Error>) -> Void) {
        channel.eventLoop.preconditionInEventLoop()
        let key = self.key
        let served = streamsOpened
        openStreams += 1
        streamsOpened += 1
        let promise = channel.eventLoop.makePromise(of: (any Channel).self)
        multiplexer.createStreamChannel(promise: promise) { stream in
            stream.eventLoop.makeCompletedFuture {
                let pipeline = stream.pipeline.syncOperations
                try pipeline.addHandler(HTTP2FramePayloadToHTTPClientCodec())
                try pipeline.addHandler(UpstreamConnection(key: key, isStream: true))
            }
        }
        promise.futureResult.assumeIsolated().whenComplete { [self] result in
            switch result {
            case .failure(let error):
                openStreams -= 1
                body(.failure(error))
            case .success(let stream):
                stream.closeFuture.assumeIsolated().whenComplete { [self] _ in openStreams -= 1 }
                body(Result {
                    let connection = try stream.pipeline.syncOperations.handler(type: UpstreamConnection.self)
                    connection.served = served
                    connection.multiplexed = self
                    return connection
                })
            }
        }
    }

    /// Connects to `key` within `timeout` and sends HTTP/2's preface; `goingAway` is called (on the
    /// loop) with the last stream ID of each `GOAWAY` the upstream sends.
    static func connect(_ key: UpstreamKey, on eventLoop: any EventLoop, timeout: TimeAmount,
                        goingAway: @escaping @Sendable (any Channel, HTTP2StreamID) -> Void)
        -> EventLoopFuture<(any Channel, NIOHTTP2Handler.StreamMultiplexer)> {
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    var connection = NIOHTTP2Handler.ConnectionConfiguration()
                    connection.initialSettings = nioDefaultSettings + [HTTP2Setting(parameter: .enablePush, value: 0)]
                    let pipeline = channel.pipeline.syncOperations
                    // A connection error (the upstream's bad frame) closes the connection after its GOAWAY.
                    try pipeline.addHandler(ConnectionErrorClosure(isClient: true))
                    _ = try pipeline.configureHTTP2Pipeline(
                        mode: .client, connectionConfiguration: connection, streamConfiguration: .init()
                    ) { pushed in pushed.close() }   // push is off: a pushed stream is refused
                    try pipeline.addHandler(GoAwayWatcher { goingAway(channel, $0) })
                }
            }
        let connected: EventLoopFuture<any Channel>
        if let address = try? SocketAddress(ipAddress: key.host, port: key.port) {
            connected = bootstrap.connect(to: address)
        } else {
            connected = bootstrap.connect(host: key.host, port: key.port)
        }
        return connected.flatMapThrowing { channel in
            (channel, try channel.pipeline.syncOperations.handler(type: NIOHTTP2Handler.self).syncMultiplexer())
        }
    }
}

/// On an upstream h2c connection, after NIO's HTTP/2 handler: reports the upstream's `GOAWAY`.
private final class GoAwayWatcher: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame

    private let goingAway: (HTTP2StreamID) -> Void

    init(_ goingAway: @escaping (HTTP2StreamID) -> Void) { self.goingAway = goingAway }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .goAway(let last, _, _) = unwrapInboundIn(data).payload { goingAway(last) }
        context.fireChannelRead(data)
    }
}
