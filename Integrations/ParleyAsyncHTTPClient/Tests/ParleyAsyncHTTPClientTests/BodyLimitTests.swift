import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Parley
import ParleyAsyncHTTPClient
import ParleyClient
import ParleyHTTP
import Testing

/// A reply far over `maxResponseBodyBytes` fails with the typed error, and the transport stops
/// reading: the server, writing with backpressure, gets only a bounded part of it out.
@Suite struct BodyLimitTests {
    static let replyBytes = 64 << 20
    static let limit = 1 << 20
    static let chunkSize = 64 << 10

    /// A raw reply streaming 64 MiB (chunked, or with a `Content-Length`), counting what the socket
    /// took: each chunk is written and flushed straight on the channel and counted once written,
    /// so `written` is what left the process, not what waits in it (an async writer takes chunks
    /// ahead of its channel's writability, tens of MiB of them when its event loop is slow to say
    /// it is full).
    static func hugeReply(declaringLength: Bool, written: Shared<Int>, finished: Shared<Bool>) -> TestServer.RawReply {
        { _, channel in
            defer { finished.value = true }
            let framing = declaringLength ? "Content-Length: \(replyBytes)" : "Transfer-Encoding: chunked"
            try await channel.writeAndFlush(
                ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(framing)\r\n\r\n")).get()
            var chunk = ByteBuffer()
            if !declaringLength { chunk.writeString(String(chunkSize, radix: 16) + "\r\n") }
            chunk.writeRepeatingByte(0x20, count: chunkSize)
            if !declaringLength { chunk.writeString("\r\n") }
            for _ in 0..<(replyBytes / chunkSize) {
                try await channel.writeAndFlush(chunk).get()
                written.update { $0 += chunkSize }
            }
            if !declaringLength { try await channel.writeAndFlush(ByteBuffer(string: "0\r\n\r\n")).get() }
        }
    }

    /// The most the server can get out once the client stops reading: what the client read (the
    /// limit and a chunk), a chunk of AsyncHTTPClient's read-ahead and one the server has under
    /// way, and what the kernel's buffers hold between them: the client's receive buffer and the
    /// server's send buffer at their largest (the third value of `/proc/sys/net/ipv4/tcp_rmem`
    /// and `tcp_wmem`; loopback grows them to it under a fast writer). Far below the reply's
    /// 64 MiB where those buffers are (32 and 4 MiB on the CI machine).
    static let mostSent: Int = {
        func largest(_ path: String) -> Int {
            (try? String(contentsOfFile: path, encoding: .utf8))?.split(whereSeparator: \.isWhitespace).last
                .flatMap { Int($0) } ?? 6 << 20
        }
        return limit + 3 * chunkSize + largest("/proc/sys/net/ipv4/tcp_rmem") + largest("/proc/sys/net/ipv4/tcp_wmem")
    }()

    /// Waits (at most 10 s) for the handler to stop, then returns how much it wrote.
    static func settled(_ written: Shared<Int>, _ finished: Shared<Bool>) async throws -> Int {
        for _ in 0..<200 where !finished.value { try await Task.sleep(for: .milliseconds(50)) }
        #expect(finished.value, "the server kept writing: the connection was not closed")
        return written.value
    }

    @Test(arguments: [false, true])
    func sendStopsAtTheLimit(declaringLength: Bool) async throws {
        let written = Shared(0), finished = Shared(false)
        let reply = Self.hugeReply(declaringLength: declaringLength, written: written, finished: finished)
        let error = try await TestServer.runRaw(reply: reply) { port in
            let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/huge")
            let transport = AsyncHTTPClientTransport(maxResponseBodyBytes: Self.limit)
            return await #expect(throws: ParleyError.self) { _ = try await transport.send(request, body: nil) }
        }
        let failure = try #require(error)
        #expect(failure.code == .limitExceeded)
        #expect(failure.limit?.name == "maxResponseBodyBytes")
        #expect(failure.limit?.maximum == Self.limit)
        #expect(failure.response?.status == .ok)
        let actual = try #require(failure.limit?.actual)
        if declaringLength {
            #expect(actual == Self.replyBytes)   // refused from the Content-Length, before reading
        } else {
            #expect(actual > Self.limit && actual <= Self.limit + (1 << 20))   // the limit and one chunk
        }
        // What left the server: the bytes read plus what the socket buffers and AsyncHTTPClient's
        // read-ahead held (5-16 MB measured here, up to ``mostSent``), never the whole reply.
        let sent = try await Self.settled(written, finished)
        #expect(sent <= Self.mostSent && sent < Self.replyBytes, "the server wrote \(sent) bytes")
    }

    @Test func clientReportsTheLimitNotATransportFailure() async throws {
        let written = Shared(0), finished = Shared(false)
        let reply = Self.hugeReply(declaringLength: false, written: written, finished: finished)
        let error = try await TestServer.runRaw(reply: reply) { port in
            let client = Client(baseURL: URL(string: "http://127.0.0.1:\(port)/"),
                                transport: AsyncHTTPClientTransport(maxResponseBodyBytes: Self.limit),
                                registry: .linked)
            return await #expect(throws: ParleyError.self) { _ = try await client.get("huge") }
        }
        #expect(error?.code == .limitExceeded)
        let sent = try await Self.settled(written, finished)
        #expect(sent <= Self.mostSent && sent < Self.replyBytes, "the server wrote \(sent) bytes")
    }

    @Test func bodyAtTheLimitIsAccepted() async throws {
        let body = [UInt8](repeating: 0x41, count: 4096)
        let received = try await TestServer.run(handler: { _, writer in
            try await writer.respond(headers: [("Content-Type", "text/plain")], body: body)
        }) { port in
            let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/")
            return try await AsyncHTTPClientTransport(maxResponseBodyBytes: 4096).send(request, body: nil).1
        }
        #expect(received == body)
    }
}

extension BodyLimitTests {
    /// An answer to HEAD (and a 204 or 304) has no body, whatever its `Content-Length` says.
    @Test(arguments: [(HTTPRequest.Method.head, HTTPResponseStatus.ok), (.get, .notModified), (.get, .noContent)])
    func bodilessAnswersAreNotRefusedByTheirLength(method: HTTPRequest.Method,
                                                   status: HTTPResponseStatus) async throws {
        let (response, body) = try await TestServer.run(handler: { _, writer in
            try await writer.writeHead(status, headers: [("Content-Length", String(Self.replyBytes))])
            try await writer.write(.end(nil))
        }) { port in
            let request = HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1:\(port)", path: "/")
            return try await AsyncHTTPClientTransport(maxResponseBodyBytes: Self.limit).send(request, body: nil)
        }
        #expect(response.status.code == Int(status.code))
        #expect(body.isEmpty)
    }
}
