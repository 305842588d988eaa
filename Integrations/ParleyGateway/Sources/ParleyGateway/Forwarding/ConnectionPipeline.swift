import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOHTTPTypesHTTP2

/// How a client connection of the main port is set up: HTTP/1.1, or HTTP/2 over cleartext (h2c)
/// when the client opens with HTTP/2's connection preface (prior knowledge, RFC 9113 §3.3) or
/// upgrades its first HTTP/1.1 request with `Upgrade: h2c` (RFC 7540 §3.2, ``H2CUpgrade``). Either
/// way every request goes through a ``RequestHeadGuard`` and a ``ProxyHandler`` of its own
/// channel: a connection's for HTTP/1.1, a stream's for HTTP/2 (the stream's frames become HTTP
/// types, its heads made what an HTTP/1.1 request's are), so both protocols share one forwarding
/// path, its limits and timeouts.
struct ConnectionPipeline: Sendable {
    let shared: ForwardingContext
    let headerTimeout: TimeAmount
    let bodyTimeout: TimeAmount
    let policy: RequestHeadPolicy
    let decoderLimits: NIOHTTPDecoderLimitConfiguration
    let maxHeaderBytes: Int
    let maxConcurrentStreams: Int

    init(shared: ForwardingContext) {
        let configuration = shared.configuration
        self.shared = shared
        self.headerTimeout = .nanoseconds(configuration.headerTimeout.nanoseconds)
        self.bodyTimeout = .nanoseconds(configuration.bodyTimeout.nanoseconds)
        self.policy = RequestHeadPolicy(trustedProxies: configuration.trustedProxies)
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = configuration.maxHeaderBytes
        limits.maxHeaderListSize = configuration.maxHeaderBytes
        limits.maxHeaderFieldCount = Self.maxHeaderFields
        self.decoderLimits = limits
        self.maxHeaderBytes = configuration.maxHeaderBytes
        self.maxConcurrentStreams = configuration.maxConcurrentStreams
    }

    /// The most header fields a request may have, on either protocol.
    static let maxHeaderFields = 1000

    /// Sets up a new connection: a ``ProtocolDetector`` that picks its protocol from its first bytes.
    func configure(_ channel: any Channel) throws {
        try channel.pipeline.syncOperations.addHandler(ProtocolDetector(pipeline: self))
    }

    /// HTTP/1.1: the gateway's codec (which decodes requests from bytes, writes responses as
    /// bytes, and takes a first request asking for h2c to it, ``H2CUpgrade``), the head guard (whose
    /// first wait for a head is `firstHeadTimeout`, the rest of the header timeout the detector
    /// left) and the proxy.
    func configureHTTP1(_ channel: any Channel, firstHeadTimeout: TimeAmount) throws {
        let pool = try self.pool(for: channel)
        let pipeline = channel.pipeline.syncOperations
        let memory = ConnectionMemory()
        let codec = try Self.addHTTP1Codec(to: pipeline, upgrade: H2CUpgrade(pipeline: self, policy: policy),
                                           limits: decoderLimits, memory: memory)
        let headGuard = RequestHeadGuard(timeout: headerTimeout, bodyTimeout: bodyTimeout, policy: policy,
                                         firstTimeout: firstHeadTimeout, memory: memory, codec: codec)
        try pipeline.addHandler(headGuard)
        try pipeline.addHandler(ProxyHandler(shared: shared, pool: pool, memory: memory, headGuard: headGuard))
    }

    /// The handlers of an HTTP/1.1 connection up to HTTP types: ``HTTPTypesServerCodec`` alone,
    /// with NIO's decoder limits (`limits`), when given, the h2c upgrade of a first request, and
    /// the connection's `memory`, through which it takes passed-through heads' field lines.
    /// Returns the codec, which the head guard after it joins (``RequestHeadGuard``).
    @discardableResult
    static func addHTTP1Codec(to pipeline: ChannelPipeline.SynchronousOperations, upgrade: H2CUpgrade?,
                              limits: NIOHTTPDecoderLimitConfiguration, memory: ConnectionMemory? = nil) throws
        -> HTTPTypesServerCodec {
        let codec = HTTPTypesServerCodec(limits: limits, upgrade: upgrade, memory: memory)
        try pipeline.addHandler(codec)
        return codec
    }

    /// h2c: NIO's HTTP/2 handler with a stream channel per request, and a connection manager that
    /// closes a connection idle for the header timeout and sends `GOAWAY` on graceful shutdown
    /// (then closes once the streams in flight are answered; a client that does not acknowledge the
    /// shutdown within the header timeout is closed, ``ShutdownAcknowledgementDeadline``). A
    /// connection error closes the connection after its `GOAWAY` (``ConnectionErrorClosure``). A
    /// connection upgraded from HTTP/1.1 gets the request it was upgraded with as stream 1.
    func configureHTTP2(_ channel: any Channel, upgradedRequest: UpgradedRequest? = nil) throws {
        var connection = NIOHTTP2Handler.ConnectionConfiguration()
        connection.initialSettings = [
            HTTP2Setting(parameter: .maxConcurrentStreams, value: maxConcurrentStreams),
            // Room above the gateway's own limit, so that a head over it is answered 431 on its
            // stream (as HTTP/1.1 answers it) rather than failing the whole connection. Both
            // settings apply before the client acknowledges them (``EarlySettingsAcknowledgement``).
            HTTP2Setting(parameter: .maxHeaderListSize, value: 2 * maxHeaderBytes + 32 * Self.maxHeaderFields),
        ]
        let lifetime = NIOHTTP2ServerConnectionManagementHandler.Configuration(
            maxIdleTime: headerTimeout, maxAge: nil, maxGraceTime: nil, keepalive: nil)
        let manager = NIOHTTP2ServerConnectionManagementHandler(eventLoop: channel.eventLoop, configuration: lifetime)
        let pipeline = channel.pipeline.syncOperations
        // A connection error is answered with GOAWAY, then the connection closes.
        try pipeline.addHandler(ConnectionErrorClosure())
        // The settings above hold from the client's first frame, not from its acknowledgement; a
        // client that sends no preface within the header timeout is closed.
        try pipeline.addHandler(EarlySettingsAcknowledgement(prefaceTimeout: headerTimeout,
                                                             upgradedRequest: upgradedRequest))
        // The manager counts the open streams through the stream delegate. The streams share the
        // connection's memory of its last exchange, on its event loop (theirs too).
        let memory = NIOLoopBound(ConnectionMemory(), eventLoop: channel.eventLoop)
        _ = try pipeline.configureHTTP2Pipeline(mode: .server, connectionConfiguration: connection,
                                                streamConfiguration: .init(),
                                                streamDelegate: manager.http2StreamDelegate) { stream in
            stream.eventLoop.makeCompletedFuture { try configureStream(stream, memory: memory.value) }
        }
        try pipeline.addHandler(manager)
        try pipeline.addHandler(ShutdownAcknowledgementDeadline(timeout: headerTimeout))
        // The connection was active before these handlers came: the manager starts its idle timer on
        // `channelActive`, which the HTTP/2 handler (activated when added) does not pass on.
        try pipeline.context(handlerType: NIOHTTP2Handler.self).fireChannelActive()
    }

    /// One HTTP/2 stream: its frames as HTTP types, its heads made what an HTTP/1.1 request's are
    /// (``HTTP2StreamHeads``: the head-size check HTTP/1.1's decoder makes, among others), then the
    /// same guard and proxy as an HTTP/1.1 connection, which share the connection's `memory` with
    /// its other streams'.
    private func configureStream(_ stream: any Channel, memory: ConnectionMemory) throws {
        let pool = try self.pool(for: stream)
        let pipeline = stream.pipeline.syncOperations
        try pipeline.addHandler(HTTP2FramePayloadToHTTPServerCodec())
        try pipeline.addHandler(HTTP2StreamHeads(maxBytes: maxHeaderBytes, maxFields: Self.maxHeaderFields))
        let headGuard = RequestHeadGuard(timeout: headerTimeout, bodyTimeout: bodyTimeout, policy: policy,
                                         memory: memory, isStream: true)
        try pipeline.addHandler(headGuard)
        try pipeline.addHandler(ProxyHandler(shared: shared, pool: pool, memory: memory, headGuard: headGuard))
    }

    private func pool(for channel: any Channel) throws -> UpstreamPool {
        guard let pool = shared.pools.pool(for: channel.eventLoop) else { throw ChannelError.ioOnClosedChannel }
        return pool
    }
}
