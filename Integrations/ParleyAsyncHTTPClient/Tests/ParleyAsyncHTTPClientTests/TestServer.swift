import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A small HTTP/1.1 server for the tests, on 127.0.0.1 and an ephemeral port, in this process.
///
/// Every request (head and body, at most ``maxRequestBodyBytes``) goes to one handler, which
/// writes the response parts itself, so it can stream, stall or close mid-body. A connection
/// stays open for the next request until the handler throws (which closes it). The server,
/// its connections and the test body are bounded by `lifetime`: when it passes, everything is
/// cancelled and ``Expired`` is thrown.
struct TestServer {
    /// A request as received.
    struct Request: Sendable {
        var head: HTTPRequestHead
        var body: [UInt8]
    }

    typealias Writer = NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    typealias Handler = @Sendable (Request, Writer) async throws -> Void

    /// Thrown by a handler to close the connection.
    struct Close: Error {}
    /// The server outlived its lifetime (a test hung).
    struct Expired: Error {}

    static let maxRequestBodyBytes = 4 << 20

    /// Runs `body` with the port of a server answering with `handler`, then stops the server.
    static func run<T: Sendable>(lifetime: Duration = .seconds(120), handler: @escaping Handler,
                                 _ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        return try await serving(server, lifetime: lifetime,
                                 connection: { try await serve($0, handler: handler) }, body)
    }

    /// A raw connection: the bytes of the request head are read, then `reply` writes whatever it
    /// likes (malformed responses) on the channel and the connection closes.
    typealias RawReply = @Sendable (NIOAsyncChannelOutboundWriter<ByteBuffer>, any Channel) async throws -> Void

    /// Runs `body` with the port of a server answering every request with `reply`, below HTTP.
    static func runRaw<T: Sendable>(lifetime: Duration = .seconds(120), reply: @escaping RawReply,
                                    _ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await serving(server, lifetime: lifetime, connection: { connection in
            try await connection.executeThenClose { inbound, outbound in
                var head: [UInt8] = []
                for try await buffer in inbound {
                    head.append(contentsOf: buffer.readableBytesView)
                    if head.count > maxRequestBodyBytes { return }
                    if head.suffix(4).elementsEqual("\r\n\r\n".utf8) { break }
                }
                try await reply(outbound, connection.channel)
            }
        }, body)
    }

    private static func serving<Connection: Sendable, T: Sendable>(
        _ server: NIOAsyncChannel<Connection, Never>, lifetime: Duration,
        connection serve: @escaping @Sendable (Connection) async throws -> Void,
        _ body: @escaping @Sendable (Int) async throws -> T
    ) async throws -> T {
        guard let port = server.channel.localAddress?.port else { throw Expired() }
        return try await withThrowingTaskGroup(of: Outcome<T>?.self) { group in
            group.addTask {
                try await server.executeThenClose { connections in
                    await withDiscardingTaskGroup { connectionGroup in
                        do {
                            for try await connection in connections {
                                connectionGroup.addTask { try? await serve(connection) }
                            }
                        } catch {}
                    }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: lifetime)
                return .expired
            }
            group.addTask { .done(try await body(port)) }
            defer { group.cancelAll() }
            while let outcome = try await group.next() {
                switch outcome {
                case .done(let value)?: return value
                case .expired?: throw Expired()
                case nil: continue
                }
            }
            throw Expired()
        }
    }

    private enum Outcome<T: Sendable>: Sendable { case done(T), expired }

    private static func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>,
                              handler: Handler) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body: [UInt8] = []
            for try await part in inbound {
                switch part {
                case .head(let received):
                    head = received
                    body = []
                case .body(let buffer):
                    guard body.count + buffer.readableBytes <= maxRequestBodyBytes else { return }
                    body.append(contentsOf: buffer.readableBytesView)
                case .end:
                    guard let received = head else { return }
                    head = nil
                    try await handler(Request(head: received, body: body), outbound)
                }
            }
        }
    }

    /// A port nothing listens on: bound by a server, which is then closed.
    static func closedPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 1
        try await channel.close()
        return port
    }
}

extension NIOAsyncChannelOutboundWriter<HTTPServerResponsePart> {
    /// Writes a whole response with a `Content-Length`.
    func respond(_ status: HTTPResponseStatus = .ok, headers: [(String, String)] = [],
                 body: [UInt8] = []) async throws {
        var fields = HTTPHeaders(headers)
        fields.replaceOrAdd(name: "content-length", value: String(body.count))
        try await write(.head(HTTPResponseHead(version: .http1_1, status: status, headers: fields)))
        if !body.isEmpty { try await write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
        try await write(.end(nil))
    }

    /// Writes a response head.
    func writeHead(_ status: HTTPResponseStatus = .ok, headers: [(String, String)]) async throws {
        try await write(.head(HTTPResponseHead(version: .http1_1, status: status, headers: HTTPHeaders(headers))))
    }

    /// Writes body bytes.
    func writeBody(_ bytes: some Sequence<UInt8>) async throws {
        try await write(.body(.byteBuffer(ByteBuffer(bytes: bytes))))
    }
}

/// A value shared between a handler and its test.
final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
    func update(_ change: (inout Value) -> Void) { storage.withLock { change(&$0) } }
}

/// A deterministic byte stream for large bodies: chunk `index` of `size` bytes, and a running
/// FNV-1a checksum to compare what was sent with what arrived.
enum Pattern {
    static func chunk(_ index: Int, size: Int) -> [UInt8] {
        var state = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<size).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    struct Checksum: Sendable, Equatable {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        var count = 0
        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var hash = value
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            value = hash
            count += bytes.count
        }
        mutating func add(_ bytes: [UInt8]) { bytes.withUnsafeBytes { add($0) } }
        mutating func add(_ buffer: ByteBuffer) { buffer.withUnsafeReadableBytes { add($0) } }
    }
}
