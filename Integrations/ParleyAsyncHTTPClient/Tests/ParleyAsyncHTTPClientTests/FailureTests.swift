import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Parley
import ParleyAsyncHTTPClient
import ParleyClient
import ParleyHTTP
import Testing

@Suite struct FailureTests {
    typealias Failure = AsyncHTTPClientTransport.Failure

    static func request(_ port: Int, _ path: String = "/") -> HTTPRequest {
        HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: path)
    }

    @Test func refusedConnectionIsAConnectionFailure() async throws {
        let port = try await TestServer.closedPort()
        let clock = ContinuousClock()
        let start = clock.now
        let failure = await #expect(throws: Failure.self) {
            try await AsyncHTTPClientTransport(responseHeadTimeout: .seconds(30)).stream(Self.request(port))
        }
        #expect(failure?.code == .connectionFailed)
        #expect(failure?.impliedStatus == .badGateway)
        #expect(clock.now - start < .seconds(5), "a refused connection is not retried until a timeout")

        // Through the client: a transport failure carrying the same failure.
        let client = Client(baseURL: URL(string: "http://127.0.0.1:\(port)/"), transport: AsyncHTTPClientTransport(),
                            registry: .linked)
        let error = await #expect(throws: ParleyError.self) { try await client.get("x") }
        #expect(error?.code == .transportFailed)
        #expect((error?.underlying.first as? Failure)?.code == .connectionFailed)
    }

    @Test func silentServerTimesOutWithinTheHeadTimeout() async throws {
        let clock = ContinuousClock()
        let (failure, elapsed) = try await TestServer.run(handler: { _, _ in
            try await Task.sleep(for: .seconds(30))   // never answers (cancelled when the test ends)
        }) { port in
            let start = clock.now
            let failure = await #expect(throws: Failure.self) {
                try await AsyncHTTPClientTransport(responseHeadTimeout: .milliseconds(500)).stream(Self.request(port))
            }
            return (failure, clock.now - start)
        }
        #expect(failure?.code == .timedOut)
        #expect(failure?.impliedStatus == .gatewayTimeout)
        #expect(elapsed >= .milliseconds(450) && elapsed < .seconds(3), "timed out after \(elapsed)")
    }

    @Test func serverClosingMidBodyIsAnIncompleteResponse() async throws {
        let handler: TestServer.Handler = { _, writer in
            try await writer.writeHead(headers: [("Content-Length", "100000")])
            try await writer.writeBody([UInt8](repeating: 0x2E, count: 1000))
            try await Task.sleep(for: .milliseconds(200))
            throw TestServer.Close()
        }
        let streamed = try await TestServer.run(handler: handler) { port in
            let response = try await AsyncHTTPClientTransport(responseHeadTimeout: .seconds(5))
                .stream(Self.request(port))
            #expect(response.response.status == .ok)
            var received = 0
            let failure = await #expect(throws: Failure.self) {
                for try await chunk in response.body { received += chunk.readableBytes }
            }
            #expect(received <= 1000)
            return failure
        }
        #expect(streamed?.code == .responseIncomplete)

        let sent = try await TestServer.run(handler: handler) { port in
            await #expect(throws: Failure.self) {
                _ = try await AsyncHTTPClientTransport(responseHeadTimeout: .seconds(5))
                    .send(Self.request(port), body: nil)
            }
        }
        #expect(sent?.code == .responseIncomplete)
    }

    @Test func serverClosingBeforeTheHeadIsAConnectionFailure() async throws {
        let failure = try await TestServer.run(handler: { _, _ in throw TestServer.Close() }) { port in
            await #expect(throws: Failure.self) {
                try await AsyncHTTPClientTransport(responseHeadTimeout: .seconds(5)).stream(Self.request(port))
            }
        }
        #expect(failure?.code == .connectionFailed)
    }

    @Test func cancellingTheCallerEndsTheWait() async throws {
        let clock = ContinuousClock()
        let elapsed = try await TestServer.run(handler: { _, _ in try await Task.sleep(for: .seconds(30)) }) { port in
            let start = clock.now
            let task = Task { try await AsyncHTTPClientTransport(responseHeadTimeout: nil).stream(Self.request(port)) }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            let result = await task.result
            #expect(throws: CancellationError.self) { try result.get() }
            return clock.now - start
        }
        #expect(elapsed < .seconds(3))
    }

    @Test func requestWithoutAnHTTPURLIsInvalid() async throws {
        let noScheme = HTTPRequest(method: .get, scheme: "ftp", authority: "example.org", path: "/")
        await #expect(throws: Failure.self) { try await AsyncHTTPClientTransport().stream(noScheme) }
        let failure = #expect(throws: Failure.self) { try HTTPClientRequest(noScheme) }
        #expect(failure?.code == .invalidRequest)
        #expect(failure?.impliedStatus == .internalServerError)
        let noAuthority = HTTPRequest(method: .get, scheme: "http", authority: nil, path: "/")
        #expect(throws: Failure.self) { try HTTPClientRequest(noAuthority) }
        let asterisk = HTTPRequest(method: .options, scheme: "http", authority: "example.org", path: "*")
        #expect(throws: Failure.self) { try HTTPClientRequest(asterisk) }
    }
}
