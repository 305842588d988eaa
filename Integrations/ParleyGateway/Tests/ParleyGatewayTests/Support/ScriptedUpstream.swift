import Foundation
#if canImport(CNIOLinux)
internal import CNIOLinux   // defines `NIOLinger`'s initializer on Linux
#endif
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// One step of a scripted answer: what a misbehaving upstream does on the wire.
enum ScriptStep: Sendable {
    /// Writes these bytes (and flushes).
    case send([UInt8])
    /// Waits this long before the next step.
    case pause(TimeAmount)
    /// Closes the connection cleanly (FIN).
    case close
    /// Resets the connection: `SO_LINGER` 0, then close, so the peer gets an RST.
    case reset
    /// Does nothing more: the connection stays open, silent, until the server stops.
    case hold
    /// Waits for the next request on the same connection (keep-alive).
    case nextRequest
    /// Answers 200 with the bytes of the request head it read (up to the blank line) as the body,
    /// `application/octet-stream`: what the gateway sent upstream, byte for byte.
    case echoHead

    /// Writes `text` as UTF-8.
    static func send(_ text: String) -> ScriptStep { .send(Array(text.utf8)) }
}

/// A raw TCP upstream on 127.0.0.1 at an ephemeral port that answers each request by its path
/// with the bytes a script says, whatever HTTP says: malformed heads, lying lengths, resets.
///
/// It reads a request head (up to the blank line; the tests send no request bodies to it), picks
/// the script for the head's path (query ignored) and plays it; a path without a script gets 404.
/// A script that ends without `nextRequest` closes the connection.
final class ScriptedUpstream: Sendable {
    /// A complete, well-formed JSON answer that keeps the connection open: the "still serving"
    /// request after each fault.
    static let healthy: [ScriptStep] = [
        .send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}"),
        .nextRequest,
    ]

    /// The base URL (`http://127.0.0.1:PORT`).
    let url: URL
    private let server: any Channel
    private let connections: ConnectionSet

    private init(server: any Channel, connections: ConnectionSet) {
        self.server = server
        self.connections = connections
        self.url = URL(string: "http://127.0.0.1:\(server.localAddress?.port ?? 0)")!
    }

    /// How many connections it has accepted so far.
    var acceptedConnections: Int { connections.accepted }
    /// How many of them are still open.
    var openConnections: Int { connections.openCount }

    /// Starts a server playing `scripts` (by path), runs `body`, then closes the listener and every
    /// connection still open.
    static func with<Result: Sendable>(_ scripts: [String: [ScriptStep]],
                                       _ body: (ScriptedUpstream) async throws -> Result) async throws -> Result {
        let connections = ConnectionSet()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                connections.add(channel)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ScriptPlayer(scripts: scripts))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let upstream = ScriptedUpstream(server: server, connections: connections)
        let result: Swift.Result<Result, any Error>
        do { result = .success(try await body(upstream)) } catch { result = .failure(error) }
        try? await server.close()
        await connections.closeAll()
        return try result.get()
    }
}

/// The server's open connections, so that `hold` ones close when it stops.
private final class ConnectionSet: Sendable {
    private let state = NIOLockedValueBox<(accepted: Int, open: [ObjectIdentifier: any Channel])>((0, [:]))

    var accepted: Int { state.withLockedValue { $0.accepted } }
    var openCount: Int { state.withLockedValue { $0.open.count } }

    func add(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLockedValue {
            $0.accepted += 1
            $0.open[id] = channel
        }
        channel.closeFuture.whenComplete { [self] _ in _ = state.withLockedValue { $0.open.removeValue(forKey: id) } }
    }

    func closeAll() async {
        for channel in state.withLockedValue({ Array($0.open.values) }) { try? await channel.close() }
    }
}

/// Plays one connection's scripts, one request at a time.
private final class ScriptPlayer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private static let notFound: [ScriptStep] = [
        .send("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"), .nextRequest,
    ]

    private let scripts: [String: [ScriptStep]]
    private var received: [UInt8] = []
    /// The head of the request whose script plays.
    private var head: [UInt8] = []
    private var playing = false
    private var active = true

    init(scripts: [String: [ScriptStep]]) { self.scripts = scripts }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received.append(contentsOf: unwrapInboundIn(data).readableBytesView)
        playNextRequest(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        active = false
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)   // a peer's reset: nothing more to play
    }

    /// Starts the script for the next complete request head, if one has arrived and none plays.
    private func playNextRequest(_ context: ChannelHandlerContext) {
        guard !playing, active, let end = headEnd() else { return }
        self.head = Array(received[..<end])
        let head = String(decoding: self.head, as: UTF8.self)
        received.removeFirst(end + 4)
        let target = head.split(separator: "\r\n").first?.split(separator: " ").dropFirst().first ?? "/"
        let path = String(target.prefix { $0 != "?" })
        playing = true
        play(scripts[path] ?? Self.notFound, from: 0, context)
    }

    private func headEnd() -> Int? {
        guard received.count >= 4 else { return nil }
        for index in 0...(received.count - 4)
        where received[index] == 13 && received[index + 1] == 10
            && received[index + 2] == 13 && received[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func play(_ steps: [ScriptStep], from index: Int, _ context: ChannelHandlerContext) {
        guard active else { return }
        guard index < steps.count else {
            context.close(promise: nil)
            return
        }
        switch steps[index] {
        case .send(let bytes):
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
            play(steps, from: index + 1, context)
        case .pause(let delay):
            context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
                play(steps, from: index + 1, context)
            }
        case .close:
            context.close(promise: nil)
        case .reset:
            let linger = NIOLinger(l_onoff: 1, l_linger: 0)
            if let options = context.channel as? any SocketOptionProvider {
                options.setSoLinger(linger).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            } else {
                context.close(promise: nil)
            }
        case .hold:
            break
        case .echoHead:
            let answer = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(head.count)\r\n\r\n"
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: Array(answer.utf8) + head)),
                                  promise: nil)
            play(steps, from: index + 1, context)
        case .nextRequest:
            playing = false
            playNextRequest(context)
        }
    }
}
