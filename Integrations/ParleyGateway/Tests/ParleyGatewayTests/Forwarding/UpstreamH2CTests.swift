import Foundation
import NIOCore
import NIOHTTP1
import Parley
import ParleyGateway
import Testing

/// `upstream_protocol: h2c`: the gateway speaks HTTP/2 by prior knowledge to an upstream, every
/// exchange a stream of a pooled connection, with the limits, timeouts and fault handling of
/// HTTP/1.1 upstreams.
@Suite(.timeLimit(.minutes(2))) struct UpstreamH2CTests {
    /// A gateway whose upstream, for every path, is `upstream` over h2c.
    func withH2CGateway<Result: Sendable>(_ upstream: H2CUpstream,
                                          configure: (inout GatewayConfiguration) -> Void = { _ in },
                                          _ body: @Sendable (Gateway.Addresses) async throws -> Result)
        async throws -> Result {
        try await withGateway(upstream: upstream.url, configure: { configuration in
            configuration.upstreamProtocol = .h2c
            configure(&configuration)
        }, body)
    }

    @Test func aRouteSpeaksH2CToItsUpstream() async throws {
        try await H2CUpstream.with { h2c in
            try await withUpstream(TestUpstream.router()) { http1 in
                try await withGateway(upstream: http1, configure: { configuration in
                    configuration.routes = [.init(pathPrefix: "/h2", upstream: h2c.url)]
                    configuration.routes[0].upstreamProtocol = .h2c
                }) { gateway in
                    let echo = try await fetch("http://\(gateway.main)/h2/echo?x=1", method: .POST,
                                               headers: [("content-type", "text/plain")],
                                               body: Array("over h2c".utf8))
                    #expect(echo.status == 200, "\(echo.text)")
                    let json = try JSONSerialization.jsonObject(with: Data(echo.body)) as? [String: String] ?? [:]
                    #expect(json["method"] == "POST")
                    #expect(json["path"] == "/h2/echo?x=1")
                    #expect(json["body"] == "over h2c")
                    #expect(json["length"] == "8")
                    #expect(json["via"] == "1.1 parley-gateway")
                    // Transcoded as an HTTP/1.1 upstream's answer is.
                    let yaml = try await fetch("http://\(gateway.main)/h2/value",
                                               headers: [("accept", "application/yaml")])
                    #expect(yaml.status == 200)
                    #expect(yaml.header("Content-Type")?.hasPrefix("application/yaml") == true)
                    #expect(yaml.text.contains("/h2/value"), "\(yaml.text)")
                    // The other paths still go to the gateway's HTTP/1.1 upstream.
                    #expect(try await fetch("http://\(gateway.main)/value").status == 200)
                    #expect(h2c.streams == 2)
                }
            }
        }
    }

    @Test func aBodyOfUnknownLengthStreamsUpstream() async throws {
        try await H2CUpstream.with { h2c in
            try await withH2CGateway(h2c) { gateway in
                // Chunked and past the request buffer: it streams upstream as DATA frames, no length.
                let connection = try await RawConnection.open(port: gateway.main.port)
                let chunk = String(repeating: "a", count: 40_000)
                try await connection.send("POST /echo HTTP/1.1\r\nHost: gateway\r\nTransfer-Encoding: chunked\r\n\r\n")
                for _ in 0..<3 {
                    try await connection.send(String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n")
                }
                try await connection.send("0\r\n\r\n")
                let answer = await connection.responses(1, within: .seconds(10)).first
                await connection.close()
                #expect(answer?.status == 200)
                let json = try JSONSerialization.jsonObject(with: Data(answer?.body ?? [])) as? [String: String] ?? [:]
                #expect(json["body"]?.utf8.count == 120_000)
                #expect(json["length"] == "")
            }
        }
    }

    @Test func exchangesAtOnceShareOneConnection() async throws {
        try await H2CUpstream.with { h2c in
            try await withH2CGateway(h2c) { gateway in
                // One client connection: its exchanges run on one event loop, whose pool has one
                // h2c connection for them all.
                try await withH2CClient(port: gateway.main.port) { client in
                    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                        for _ in 0..<40 { group.addTask { try await client.send(.GET, "/slow").status } }
                        return try await group.reduce(into: [Int]()) { $0.append($1) }
                    }
                    #expect(statuses == Array(repeating: 200, count: 40))
                }
                #expect(h2c.connections == 1)
                #expect(h2c.streams == 40)
                #expect(h2c.mostAtOnce >= 20, "at most \(h2c.mostAtOnce) streams at once")
            }
        }
    }

    @Test func anUpstreamResetMidBodyCutsTheClient() async throws {
        try await H2CUpstream.with { h2c in
            try await withH2CGateway(h2c) { gateway in
                // HTTP/1.1: the head and part of the body came, then the connection closes.
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send("GET /reset/5000 HTTP/1.1\r\nHost: gateway\r\n\r\n")
                #expect(await connection.waitForClose(within: .seconds(10)))
                await connection.close()
                let cut = RawResponse.parse(connection.received, partial: true).first
                #expect(cut?.status == 200)
                #expect(cut?.field("Content-Length") == "1000000")
                #expect(RawResponse.parse(connection.received).isEmpty, "a whole response arrived")
                // h2c: the stream is reset, the connection and its other streams go on.
                try await withH2CClient(port: gateway.main.port) { client in
                    let stream = try await client.open()
                    try await stream.sendHead(.GET, "/reset/5000")
                    try await stream.end()
                    await #expect(throws: (any Error).self) { try await stream.answer() }
                    #expect(stream.bodyBytesReceived == 5000)
                    // The upstream connection takes the reset stream's successors.
                    let connections = h2c.connections
                    #expect(try await client.send(.GET, "/value").status == 200)
                    #expect(client.channel.isActive)
                    #expect(h2c.connections == connections)
                }
            }
        }
    }

    @Test func aGoAwayMovesNewExchangesToANewConnection() async throws {
        try await H2CUpstream.with { h2c in
            try await withH2CGateway(h2c) { gateway in
                try await withH2CClient(port: gateway.main.port) { client in
                    #expect(try await client.send(.GET, "/value").status == 200)
                    #expect(try await client.send(.GET, "/goaway").status == 200)
                    #expect(try await client.send(.GET, "/value").status == 200)
                    try await Task.sleep(for: .milliseconds(200))   // the first connection has closed
                    #expect(try await client.send(.GET, "/value").status == 200)
                }
                #expect(h2c.connections == 2)
            }
        }
    }

    @Test func aStreamTheGoAwayRefusedGoesAgainWhateverItsMethod() async throws {
        try await H2CUpstream.with { h2c in
            try await withH2CGateway(h2c) { gateway in
                let answer = try await fetch("http://\(gateway.main)/refused-once", method: .POST,
                                             headers: [("content-type", "text/plain")], body: Array("once".utf8))
                #expect(answer.status == 200, "\(answer.text)")
                let json = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: String] ?? [:]
                #expect(json["body"] == "once")
                #expect(h2c.connections == 2)
                #expect(h2c.streams == 2)
            }
        }
    }

    @Test func aSilentUpstreamTimesOut() async throws {
        try await H2CUpstream.with { h2c in
            try await withH2CGateway(h2c, configure: { $0.upstreamTimeout = .milliseconds(500) }) { gateway in
                let started = ContinuousClock.now
                let answer = try await fetch("http://\(gateway.main)/never")
                #expect(answer.status == 504)
                #expect(ContinuousClock.now - started < .seconds(5))
                #expect(try await fetch("http://\(gateway.main)/value").status == 200)
            }
        }
    }

    @Test func anUnreachableUpstreamIs502() async throws {
        let port = try await FaultTests.closedPort()
        let upstream = URL(string: "http://127.0.0.1:\(port)")!
        try await withGateway(upstream: upstream, configure: { $0.upstreamProtocol = .h2c }) { gateway in
            let answer = try await fetch("http://\(gateway.main)/value")
            #expect(answer.status == 502, "\(answer.text)")
        }
    }

    @Test func aSlowClientPausesTheUpstreamStream() async throws {
        let size = 1 << 30
        try await H2CUpstream.with { h2c in
            try await withH2CGateway(h2c) { gateway in
                try await withH2CClient(port: gateway.main.port) { client in
                    let stream = try await client.open(autoRead: false)
                    try await stream.sendHead(.GET, "/big/\(size)")
                    try await stream.end()
                    #expect(await eventually { h2c.sent > 0 })
                    try await Task.sleep(for: .seconds(2))
                    // The client's window is shut, so the gateway stops reading the upstream's stream,
                    // whose window shuts in turn.
                    let held = h2c.sent
                    #expect(held < 16 << 20, "the upstream sent \(held) bytes to a client reading nothing")
                    try await stream.readOn()
                    #expect(await eventually { stream.bodyBytesReceived > held + (4 << 20) },
                            "\(stream.bodyBytesReceived) bytes read")
                    await stream.reset()
                    #expect(try await client.send(.GET, "/value").status == 200)
                }
            }
        }
    }

    /// An upstream's connection error (here DATA on stream 0 right after its SETTINGS) gets the
    /// gateway's `GOAWAY` and the connection closes at once (RFC 9113 §5.4.1): the exchange on it
    /// is a 502 then, not a 504 at the upstream timeout.
    @Test func anUpstreamsConnectionErrorClosesItsConnectionAndIsA502() async throws {
        // The scripted upstream reads the client's preface as a head for the path `*`.
        let settings: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 0, 0]
        let dataOnStream0: [UInt8] = [0, 0, 4, 0, 0, 0, 0, 0, 0] + Array("data".utf8)
        try await ScriptedUpstream.with(["*": [.send(settings), .send(dataOnStream0), .hold]]) { upstream in
            try await withGateway(upstream: upstream.url, configure: { configuration in
                configuration.upstreamProtocol = .h2c
                configuration.upstreamTimeout = .seconds(60)
            }) { gateway in
                let sent = ContinuousClock.now
                let answer = try await fetch("http://\(gateway.main)/value", timeout: .seconds(10))
                #expect(answer.status == 502, "\(answer.status) \(answer.text)")
                #expect(ContinuousClock.now - sent < .seconds(3))
                #expect(await eventually(within: .seconds(3)) { upstream.openConnections == 0 })
            }
        }
    }

    @Test func theProtocolIsAConfigurationKey() throws {
        #expect(try GatewayConfiguration(yaml: Array("upstream: http://a\n".utf8)).upstreamProtocol == .http1)
        let yaml = """
            upstream: http://a
            upstream_protocol: h2c
            routes:
              - prefix: /old
                upstream_protocol: http1
              - prefix: /other
            """
        let configuration = try GatewayConfiguration(yaml: Array(yaml.utf8))
        #expect(configuration.upstreamProtocol == .h2c)
        #expect(configuration.routes.map(\.upstreamProtocol) == [.http1, nil])
        #expect(throws: GatewayConfigurationError.self) {
            try GatewayConfiguration(yaml: Array("upstream: http://a\nupstream_protocol: h2\n".utf8))
        }
    }
}
