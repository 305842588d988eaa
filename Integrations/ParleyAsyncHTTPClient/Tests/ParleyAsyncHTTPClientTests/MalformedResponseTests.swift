#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif
import HTTPTypes
import NIOCore
import ParleyAsyncHTTPClient
import Testing

/// Responses below HTTP: malformed heads and resets, from a raw TCP server.
@Suite struct MalformedResponseTests {
    typealias Failure = AsyncHTTPClientTransport.Failure

    static func stream(_ port: Int) async throws {
        let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/")
        _ = try await AsyncHTTPClientTransport(responseHeadTimeout: .seconds(5)).stream(request)
    }

    @Test(arguments: ["HTTP/1.1 200 OK\r\nA field without a colon\r\n\r\n", "HELLO\r\n\r\n",
                      "HTTP/1.1 2000 Too Long\r\nContent-Length: 0\r\n\r\n"])
    func malformedHeadIsAnInvalidResponse(head: String) async throws {
        let failure = try await TestServer.runRaw(reply: { writer, _ in
            try await writer.write(ByteBuffer(string: head))
            try await Task.sleep(for: .milliseconds(200))
        }) { port in
            await #expect(throws: Failure.self) { try await Self.stream(port) }
        }
        #expect(failure?.code == .invalidResponse)
    }

    @Test func resetBeforeTheHeadIsAConnectionFailure() async throws {
        let failure = try await TestServer.runRaw(reply: { _, channel in
            let provider = try #require(channel as? any SocketOptionProvider)
            try await provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()   // close sends RST
        }) { port in
            await #expect(throws: Failure.self) { try await Self.stream(port) }
        }
        #expect(failure?.code == .connectionFailed)
        #expect((failure?.underlying as? IOError)?.errnoCode == ECONNRESET)
    }

    @Test func resetMidBodyIsAnIncompleteResponse() async throws {
        let failure = try await TestServer.runRaw(reply: { writer, channel in
            try await writer.write(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"))
            try await writer.write(ByteBuffer(repeating: 0x2E, count: 1000))
            try await Task.sleep(for: .milliseconds(200))
            let provider = try #require(channel as? any SocketOptionProvider)
            try await provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }) { port in
            let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/")
            let response = try await AsyncHTTPClientTransport(responseHeadTimeout: .seconds(5)).stream(request)
            return await #expect(throws: Failure.self) { _ = try await response.collect(upTo: 1 << 20) }
        }
        #expect(failure?.code == .responseIncomplete)
        #expect((failure?.underlying as? IOError)?.errnoCode == ECONNRESET)
    }
}
