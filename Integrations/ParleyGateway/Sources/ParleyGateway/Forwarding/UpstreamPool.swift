import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOHTTPTypesHTTP1
import NIOPosix

/// The connections to the upstreams of one event loop, used only on that loop: keep-alive
/// HTTP/1.1 connections, one exchange at a time on each, and h2c connections, an exchange per
/// stream. A client's exchange takes an upstream connection on its own loop, so no byte of it
/// crosses threads. Sendable only to be handed to its loop: every method checks it runs there.
final class UpstreamPool: @unchecked Sendable {
    let eventLoop: any EventLoop
    /// The most idle connections kept for one upstream; more are closed when released.
    let maxIdlePerUpstream: Int
    /// The idle connections of each HTTP/1.1 upstream, made once per upstream (the configuration's)
    /// and kept when empty.
    private var idle: [UpstreamKey: IdleConnections] = [:]
    /// The h2c connections of each h2c upstream, open or going away.
    private var multiplexed: [UpstreamKey: [MultiplexedUpstream]] = [:]
    /// Those waiting for an h2c connection being made, by upstream.
    private var connecting: [UpstreamKey: [(Result<UpstreamConnection, any Error>) -> Void]] = [:]
    private var closed = false

    init(eventLoop: any EventLoop, maxIdlePerUpstream: Int = 64) {
        self.eventLoop = eventLoop
        self.maxIdlePerUpstream = maxIdlePerUpstream
    }

    /// An idle HTTP/1.1 connection to `key` that is still open, when there is one.
    func takeIdle(_ key: UpstreamKey) -> UpstreamConnection? {
        eventLoop.preconditionInEventLoop()
        guard let idle = idle[key] else { return nil }
        while let connection = idle.connections.popLast() {
            connection.isIdle = false
            if connection.isActive { return connection }
        }
        return nil
    }

    /// Hands `body` an idle connection to `key`, at once, or a new one (connecting within
    /// `timeout`), or why none could be made.
    func acquire(_ key: UpstreamKey, timeout: TimeAmount,
                 _ body: @escaping (Result<UpstreamConnection, any Error>) -> Void) {
        eventLoop.preconditionInEventLoop()
        if key.upstreamProtocol == .h2c { return acquireStream(key, timeout: timeout, body) }
        if let connection = takeIdle(key) { return body(.success(connection)) }
        let pool = self
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let codec = try Self.configure(channel.pipeline.syncOperations)
                    try channel.pipeline.syncOperations.addHandler(UpstreamConnection(key: key, pool: pool,
                                                                                      http1: codec))
                }
            }
        let connected: EventLoopFuture<any Channel>
        if let address = try? SocketAddress(ipAddress: key.host, port: key.port) {
            connected = bootstrap.connect(to: address)
        } else {
            connected = bootstrap.connect(host: key.host, port: key.port)
        }
        connected.assumeIsolated().whenComplete { result in
            body(result.flatMap { channel in
                Result { try channel.pipeline.syncOperations.handler(type: UpstreamConnection.self) }
            })
        }
    }

    /// The HTTP/1.1 handlers of an upstream connection: ``UpstreamHTTP1Codec``, which writes
    /// requests as bytes and decodes responses, both straight from and to HTTP types.
    @discardableResult
    static func configure(_ pipeline: ChannelPipeline.SynchronousOperations) throws -> UpstreamHTTP1Codec {
        let codec = UpstreamHTTP1Codec()
        try pipeline.addHandler(codec)
        return codec
    }

    /// Hands `body` a new stream of an h2c connection to `key` that takes more: an open one, or one
    /// made for it and for those asking meanwhile (connecting within `timeout`).
    private func acquireStream(_ key: UpstreamKey, timeout: TimeAmount,
                               _ body: @escaping (Result<UpstreamConnection, any Error>) -> Void) {
        if let connection = multiplexed[key]?.first(where: \.takesStreams) { return connection.openStream(body) }
        guard !closed else { return body(.failure(ChannelError.ioOnClosedChannel)) }
        guard connecting[key] == nil else {
            connecting[key]!.append(body)
            return
        }
        connecting[key] = [body]
        let pool = self
        let connected = MultiplexedUpstream.connect(key, on: eventLoop, timeout: timeout) { channel, last in
            pool.upstreamGoingAway(channel, key, lastStreamID: last)
        }
        connected.assumeIsolated().whenComplete { [self] result in
            let waiting = connecting.removeValue(forKey: key) ?? []
            switch result {
            case .failure(let error):
                for waiter in waiting { waiter(.failure(error)) }
            case .success(let (channel, multiplexer)):
                let connection = MultiplexedUpstream(key: key, channel: channel, multiplexer: multiplexer)
                multiplexed[key, default: []].append(connection)
                channel.closeFuture.assumeIsolated().whenComplete { [self] _ in
                    multiplexed[key]?.removeAll { $0 === connection }
                    if multiplexed[key]?.isEmpty == true { multiplexed[key] = nil }
                }
                if closed { channel.close(promise: nil) }
                for waiter in waiting { acquireStream(key, timeout: timeout, waiter) }
            }
        }
    }

    /// The upstream sent `GOAWAY` on `channel`: its open streams finish there, new ones go to a new
    /// connection.
    private func upstreamGoingAway(_ channel: any Channel, _ key: UpstreamKey, lastStreamID: HTTP2StreamID) {
        eventLoop.preconditionInEventLoop()
        for connection in multiplexed[key] ?? [] where connection.channel === channel {
            connection.goAwayLastStreamID = min(connection.goAwayLastStreamID ?? lastStreamID, lastStreamID)
        }
    }

    /// Takes back a connection whose exchange ended cleanly, to reuse; closes it when the pool
    /// is full or shut. A stream is not reused: it closes once both its ends are sent.
    func release(_ connection: UpstreamConnection) {
        eventLoop.preconditionInEventLoop()
        connection.delegate = nil
        connection.giveSlot()
        guard !connection.isStream else { return }
        connection.served += 1
        connection.resumeReads()
        let list: IdleConnections
        if let existing = idle[connection.key] {
            list = existing
        } else {
            list = IdleConnections()
            idle[connection.key] = list
        }
        guard !closed, connection.isActive, list.connections.count < maxIdlePerUpstream else {
            connection.close()
            return
        }
        connection.isIdle = true
        list.connections.append(connection)
    }

    /// Forgets an idle connection that closed.
    func forget(_ connection: UpstreamConnection) {
        eventLoop.preconditionInEventLoop()
        connection.isIdle = false
        idle[connection.key]?.connections.removeAll { $0 === connection }
    }

    /// Closes every idle connection; those released later close too.
    func shutdown() {
        eventLoop.preconditionInEventLoop()
        closed = true
        let connections = idle.values.flatMap(\.connections)
        idle.removeAll()
        for connection in connections { connection.close() }
        for connection in multiplexed.values.flatMap({ $0 }) { connection.channel.close(promise: nil) }
    }
}

/// The idle connections of one upstream: a reference, so that taking one out and putting one
/// back change the list in place (through a dictionary's subscript, each change would run its
/// `_modify` accessor, whose coroutine frames are allocated).
private final class IdleConnections {
    var connections: [UpstreamConnection] = []
}

/// One ``UpstreamPool`` per event loop of a group, found by the loop a client channel runs on.
struct UpstreamPools: Sendable {
    private let pools: [ObjectIdentifier: UpstreamPool]
    private let loops: [any EventLoop]

    init(group: any EventLoopGroup) {
        var pools: [ObjectIdentifier: UpstreamPool] = [:]
        var loops: [any EventLoop] = []
        for loop in group.makeIterator() {
            loops.append(loop)
            pools[ObjectIdentifier(loop)] = UpstreamPool(eventLoop: loop)
        }
        self.pools = pools
        self.loops = loops
    }

    /// The pool of `eventLoop`; call on that loop.
    func pool(for eventLoop: any EventLoop) -> UpstreamPool? { pools[ObjectIdentifier(eventLoop)] }

    /// Closes the idle connections of every pool.
    func shutdown() async {
        for loop in loops {
            let pools = self
            try? await loop.submit { pools.pool(for: loop)?.shutdown() }.get()
        }
    }
}
