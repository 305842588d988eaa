import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Parley
import ParleyGateway
import ServiceLifecycle
import Testing

/// HTTP/2 over cleartext (h2c) on the main port, by prior knowledge: each stream goes through the
/// same forwarding as an HTTP/1.1 request, with the same limits, and streams are independent.
@Suite(.timeLimit(.minutes(2))) struct H2CTests {
    func decoded(_ answer: Answer) throws -> Value {
        try Registry.linked.decode(answer.body, contentType: MediaType(parsing: answer.header("Content-Type") ?? ""))
    }

    @Test func getAndPostGoThroughByPriorKnowledge() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                try await withH2CClient(port: gateway.main.port) { client in
                    let value = try await client.send(.GET, "/value")
                    #expect(value.status == 200)
                    #expect(try decoded(value) == TestUpstream.value)
                    #expect(value.header("Via") == "1.1 parley-gateway")
                    let yaml = try await client.send(.GET, "/value", headers: [("accept", "application/yaml")])
                    #expect(yaml.status == 200)
                    #expect(yaml.header("Content-Type")?.hasPrefix("application/yaml") == true)
                    #expect(try decoded(yaml) == TestUpstream.value)
                    let echo = try await client.send(.POST, "/echo/h2?x=1", headers: [("content-type", "text/plain")],
                                                     body: Array("hello over h2c".utf8))
                    #expect(echo.status == 200)
                    let echoed = try decoded(echo)
                    #expect(echoed["method"] == .string("POST"))
                    #expect(echoed["path"] == .string("/echo/h2?x=1"))
                    #expect(echoed["body"] == .string("hello over h2c"))
                    #expect(echoed["fields"]?["via"] == .array([.string("1.1 parley-gateway")]))
                }
            }
        }
    }

    @Test func manyConcurrentStreamsShareOneConnection() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                try await withH2CClient(port: gateway.main.port) { client in
                    let statuses = try await withThrowingTaskGroup(of: (Int, Int, String).self) { group in
                        for index in 0..<200 {
                            group.addTask {
                                let answer = try await client.send(.POST, "/echo/\(index)",
                                                                   body: Array("\(index)".utf8))
                                let body = try decoded(answer)["body"]?.stringValue ?? ""
                                return (index, answer.status, body)
                            }
                        }
                        return try await group.reduce(into: [(Int, Int, String)]()) { $0.append($1) }
                    }
                    #expect(statuses.count == 200)
                    for (index, status, body) in statuses {
                        #expect(status == 200 && body == "\(index)", "stream \(index): \(status) \(body)")
                    }
                }
            }
        }
    }

    @Test func streamsOverTheConfiguredConcurrencyWait() async throws {
        try await ProbeUpstream.with { upstream in
            try await withGateway(upstream: upstream.url, configure: { $0.maxConcurrentStreams = 3 }) { gateway in
                try await withH2CClient(port: gateway.main.port) { client in
                    // One exchange first: the client then has the gateway's settings.
                    #expect(try await client.send(.GET, "/ok").status == 200)
                    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                        for _ in 0..<9 { group.addTask { try await client.send(.GET, "/slow").status } }
                        return try await group.reduce(into: [Int]()) { $0.append($1) }
                    }
                    #expect(statuses == Array(repeating: 200, count: 9))
                    // The client may open no more streams than the gateway's SETTINGS_MAX_CONCURRENT_STREAMS.
                    #expect(upstream.mostInFlight == 3)
                }
            }
        }
    }

    @Test func anOverLimitHeadOrBodyIsAnsweredAsOnHTTP1() async throws {
        let body = Array(("[" + Array(repeating: "0", count: 10_000).joined(separator: ",") + "]").utf8)
        let yaml = try MediaType(parsing: "application/yaml")
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { configuration in
                configuration.routes = [.init(pathPrefix: "/echo", requestTypes: [yaml],
                                              maxTranscodeBytes: 10_000)]
            }) { gateway in
                try await withH2CClient(port: gateway.main.port) { client in
                    let cookie = ("cookie", String(repeating: "c", count: 20 * 1024))
                    let head = try await client.send(.GET, "/value", headers: [cookie])
                    let head1 = try await fetch("http://\(gateway.main)/value", headers: [cookie])
                    #expect(head.status == 431)
                    #expect(head.status == head1.status)
                    #expect(head.header("Content-Type") == "application/problem+json")
                    let json = ("content-type", "application/json")
                    let large = try await client.send(.POST, "/echo/in", headers: [json], body: body)
                    let large1 = try await fetch("http://\(gateway.main)/echo/in", method: .POST, headers: [json],
                                                 body: body)
                    #expect(large.status == 413, "\(large.text)")
                    #expect(large.status == large1.status)
                    // The refusals closed their streams only.
                    #expect(try await client.send(.GET, "/value").status == 200)
                }
            }
        }
    }

    @Test func theHeaderLimitHoldsBeforeTheClientAcknowledgesTheSettings() async throws {
        // 20,000 bytes of fields: over NIO's default 16 KiB header-list limit, which held until the
        // client acknowledged the gateway's SETTINGS. The clients read nothing, so acknowledge
        // nothing, until their heads are sent.
        let large = [("x-large", String(repeating: "l", count: 20_000))]
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                try await withH2CClient(port: gateway.main.port, holdingServerBytes: true) { client in
                    let stream = try await client.open()
                    try await stream.sendHead(.GET, "/value", headers: large)
                    try await stream.end()
                    try await client.readServerBytes()
                    #expect(try await stream.answer().status == 431, "over max_header_bytes (16 KiB)")
                    #expect(try await client.send(.GET, "/value").status == 200)
                }
            }
            try await withGateway(upstream: upstream, configure: { $0.maxHeaderBytes = 24 * 1024 }) { gateway in
                try await withH2CClient(port: gateway.main.port, holdingServerBytes: true) { client in
                    let stream = try await client.open()
                    try await stream.sendHead(.GET, "/value", headers: large)
                    try await stream.end()
                    try await client.readServerBytes()
                    #expect(try await stream.answer().status == 200, "within max_header_bytes (24 KiB)")
                }
            }
        }
    }

    @Test func aResetStreamTearsDownItsUpstreamExchangeOnly() async throws {
        try await ProbeUpstream.with { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                try await withH2CClient(port: gateway.main.port) { client in
                    let other = try await client.open()
                    try await other.sendHead(.GET, "/slow")
                    try await other.end()
                    let upload = try await client.open()
                    try await upload.sendHead(.POST, "/sink", bodyLength: 1 << 20)
                    for _ in 0..<4 { try await upload.sendBody(Array(repeating: 0x61, count: 50_000)) }
                    // Past the request buffer, the body streams to the upstream.
                    #expect(await eventually { upstream.sunk >= 100_000 }, "the upstream got \(upstream.sunk) bytes")
                    let closedBefore = upstream.closed
                    await upload.reset()
                    #expect(await eventually { upstream.closed > closedBefore }, "the upstream exchange stayed open")
                    #expect(try await other.answer().status == 200)
                    #expect(try await client.send(.GET, "/ok").status == 200)
                    #expect(client.channel.isActive)
                }
            }
        }
    }

    @Test func aSlowReaderPausesTheUpstream() async throws {
        let size = 1 << 30
        try await ProbeUpstream.with { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                try await withH2CClient(port: gateway.main.port) { client in
                    let stream = try await client.open(autoRead: false)
                    try await stream.sendHead(.GET, "/big/\(size)")
                    try await stream.end()
                    #expect(await eventually { upstream.sent > 0 })
                    try await Task.sleep(for: .seconds(2))
                    // The stream's window is closed: the gateway stopped reading the upstream, which
                    // is held to what the sockets between them buffer.
                    let held = upstream.sent
                    #expect(held < 64 << 20, "the upstream sent \(held) bytes to a client reading nothing")
                    try await stream.readOn()
                    #expect(await eventually { stream.bodyBytesReceived > held + (8 << 20) },
                            "\(stream.bodyBytesReceived) bytes read")
                    let closedBefore = upstream.closed
                    await stream.reset()
                    #expect(await eventually { upstream.closed > closedBefore })
                    #expect(try await client.send(.GET, "/ok").status == 200)
                }
            }
        }
    }

    @Test func gracefulShutdownSendsGoAwayAndFinishesOpenStreams() async throws {
        try await ProbeUpstream.with { upstream in
            var configuration = GatewayConfiguration(listen: HostAndPort(host: "127.0.0.1", port: 0),
                                                     upstream: upstream.url)
            configuration.headerTimeout = .seconds(30)
            let (bound, continuation) = AsyncStream<Gateway.Addresses>.makeStream()
            let gateway = Gateway(configuration: configuration, registry: .linked, logger: quietLogger) {
                continuation.yield($0)
                continuation.finish()
            }
            let services = ServiceGroup(configuration: .init(services: [gateway], gracefulShutdownSignals: [],
                                                             logger: quietLogger))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await services.run() }
                var addresses = bound.makeAsyncIterator()
                guard let port = await addresses.next()?.main.port else {
                    Issue.record("the gateway did not start")
                    return
                }
                // The client closes when the block ends (a gateway that failed to close it still stops).
                try await withH2CClient(port: port) { client in
                    #expect(try await client.send(.GET, "/ok").status == 200)
                    let inFlight = try await client.open()
                    try await inFlight.sendHead(.GET, "/slow")
                    try await inFlight.end()
                    #expect(await eventually { upstream.mostInFlight == 1 })
                    await services.triggerGracefulShutdown()
                    #expect(await eventually { !client.goAwayStreamIDs.isEmpty }, "no GOAWAY")
                    #expect(try await inFlight.answer().status == 200)
                    #expect(await eventually { !client.channel.isActive }, "the connection stayed open")
                }
                await services.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }

    /// On graceful shutdown the gateway sends GOAWAY and a PING, and waits for the acknowledgement
    /// before its last GOAWAY: a client that never acknowledges (here one that opened the connection
    /// and answers nothing) is closed after the header timeout, so the shutdown ends.
    @Test func gracefulShutdownEndsWhenAClientNeverAcknowledgesThePing() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            let shutdownBegan = try await withGateway(upstream: upstream,
                                                      configure: { $0.headerTimeout = .seconds(2) }) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                // HTTP/2's connection preface and an empty SETTINGS frame; the gateway answers its SETTINGS.
                try await connection.send("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
                try await connection.send([0, 0, 0, 4, 0, 0, 0, 0, 0])
                #expect(await eventually { connection.received.count >= 9 && connection.received[3] == 4 })
                return ContinuousClock.now
            }
            #expect(ContinuousClock.now - shutdownBegan < .seconds(8))
        }
    }

    @Test func aConnectionIdleForTheHeaderTimeoutIsClosedWithGoAway() async throws {
        try await ProbeUpstream.with { upstream in
            try await withGateway(upstream: upstream.url, configure: { $0.headerTimeout = .seconds(1) }) { gateway in
                try await withH2CClient(port: gateway.main.port) { client in
                    // A stream open for longer than the idle time keeps the connection.
                    let upload = try await client.open()
                    try await upload.sendHead(.POST, "/echo", bodyLength: 4)
                    try await Task.sleep(for: .milliseconds(1500))
                    try await upload.sendBody(Array("body".utf8))
                    try await upload.end()
                    #expect(try await upload.answer().status == 200)
                    #expect(client.goAwayStreamIDs.isEmpty)
                    #expect(await eventually(within: .seconds(5)) { !client.channel.isActive }, "still open")
                    #expect(!client.goAwayStreamIDs.isEmpty)
                }
            }
        }
    }

    /// A stream's guard arms no header or idle timer (its head came with it), but its body timer
    /// holds: a stream whose body goes silent for the body timeout is answered 408, as on HTTP/1.1,
    /// and the other streams of its connection go on.
    @Test func aStreamWhoseBodyGoesSilentIs408() async throws {
        try await ProbeUpstream.with { upstream in
            try await withGateway(upstream: upstream.url, configure: { $0.bodyTimeout = .seconds(1) }) { gateway in
                try await withH2CClient(port: gateway.main.port) { client in
                    let upload = try await client.open()
                    let started = ContinuousClock.now
                    try await upload.sendHead(.POST, "/echo", bodyLength: 4)
                    let answer = try await upload.answer(within: .seconds(5))
                    #expect(answer.status == 408)
                    #expect(ContinuousClock.now - started >= .seconds(1))
                    #expect(try await client.send(.GET, "/ok").status == 200)
                }
            }
        }
    }

    @Test func thePrefaceAndAnHTTP1RequestAreToldApartWhenTheyArriveInPieces() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                // The preface in two pieces: the gateway answers with its SETTINGS frame (type 4).
                let h2 = try await RawConnection.open(port: gateway.main.port)
                try await h2.send("PRI * HTTP/2.0\r\n")
                try await Task.sleep(for: .milliseconds(100))
                #expect(h2.received.isEmpty)
                try await h2.send("\r\nSM\r\n\r\n")
                #expect(await eventually { h2.received.count >= 9 && h2.received[3] == 4 }, "\(h2.received)")
                await h2.close()
                // "P" could start the preface: the gateway waits for the next byte, then reads HTTP/1.1.
                let h1 = try await RawConnection.open(port: gateway.main.port)
                try await h1.send("P")
                try await Task.sleep(for: .milliseconds(100))
                try await h1.send("UT /echo/piece HTTP/1.1\r\nHost: gateway\r\nContent-Length: 2\r\n\r\nok")
                let answer = await h1.responses(1, within: .seconds(5)).first
                #expect(answer?.status == 200)
                #expect(answer?.text.contains("\"PUT\"") == true, "\(answer?.text ?? "")")
                await h1.close()
            }
        }
    }

    @Test func theStreamLimitIsAConfigurationKey() throws {
        #expect(try GatewayConfiguration(yaml: Array("upstream: http://a\n".utf8)).maxConcurrentStreams == 100)
        let yaml = "upstream: http://a\nmax_concurrent_streams: 7\n"
        #expect(try GatewayConfiguration(yaml: Array(yaml.utf8)).maxConcurrentStreams == 7)
        #expect(throws: GatewayConfigurationError.self) {
            try GatewayConfiguration(yaml: Array("upstream: http://a\nmax_concurrent_streams: 0\n".utf8))
        }
    }
}
