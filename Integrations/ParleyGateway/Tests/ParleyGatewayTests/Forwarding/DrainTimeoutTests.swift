import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import Parley
import ParleyGateway
import ServiceLifecycle
import Testing

/// Graceful shutdown drains the main port's connections for at most the drain timeout: then those
/// still open are closed, the number logged, and the gateway stops, however slowly its clients read.
@Suite(.timeLimit(.minutes(2))) struct DrainTimeoutTests {
    @Test func connectionsStillOpenAtTheDrainTimeoutAreClosedAndTheGatewayStops() async throws {
        let drainTimeout = Duration.seconds(2)
        try await ProbeUpstream.with { upstream in
            var configuration = GatewayConfiguration(listen: HostAndPort(host: "127.0.0.1", port: 0),
                                                     upstream: upstream.url)
            configuration.drainTimeout = drainTimeout
            // Neither the shutdown PING's deadline nor the send timeout ends these connections: the
            // clients below read nothing, standing for slow readers that keep within the send timeout.
            configuration.headerTimeout = .seconds(60)
            configuration.sendTimeout = .seconds(600)
            let lines = CapturedLines()
            let logger = Logger(label: "parley-gateway") { _ in CapturingLogHandler(lines: lines) }
            let (bound, continuation) = AsyncStream<Gateway.Addresses>.makeStream()
            let gateway = Gateway(configuration: configuration, registry: .linked, logger: logger) {
                continuation.yield($0)
                continuation.finish()
            }
            let services = ServiceGroup(configuration: .init(services: [gateway], gracefulShutdownSignals: [],
                                                             logger: quietLogger))
            let stopped = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await services.run()
                    stopped.withLockedValue { $0 = .now }
                }
                var addresses = bound.makeAsyncIterator()
                guard let port = await addresses.next()?.main.port else {
                    Issue.record("the gateway did not start")
                    return
                }
                let size = 1 << 30
                try await withH2CClient(port: port) { client in
                    // An h2c stream whose window stays shut: open until the client reads. The client
                    // (NIO's HTTP/2 stack) acknowledges the shutdown's PING.
                    let stream = try await client.open(autoRead: false)
                    try await stream.sendHead(.GET, "/big/\(size)")
                    try await stream.end()
                    // An HTTP/1.1 answer nobody reads.
                    let reader = try await RawConnection.open(port: port, reading: false)
                    try await reader.send("GET /big/\(size) HTTP/1.1\r\nHost: gateway\r\n\r\n")
                    #expect(await eventually { upstream.accepted >= 2 && upstream.sent > 0 })
                    let shutdown = ContinuousClock.now
                    await services.triggerGracefulShutdown()
                    #expect(await eventually { !client.goAwayStreamIDs.isEmpty }, "no GOAWAY")
                    #expect(await eventually(within: drainTimeout + .seconds(3)) {
                        stopped.withLockedValue { $0 != nil }
                    }, "the gateway did not stop within the drain timeout")
                    let stoppedAfter = (stopped.withLockedValue { $0 } ?? .now) - shutdown
                    #expect(stoppedAfter >= drainTimeout - .milliseconds(100), "stopped after \(stoppedAfter)")
                    // What the sockets buffered, then the end.
                    try await reader.startReading()
                    #expect(await reader.waitForClose(within: .seconds(2)))
                    #expect(await eventually { !client.channel.isActive })
                    await reader.close()
                }
                try await group.waitForAll()
            }
            let cut = lines.all.filter { $0.contains("drain timeout") }
            #expect(cut.count == 1 && cut.first?.contains("connections=2") == true, "\(cut)")
        }
    }

    /// Connections that finish within the drain timeout end the shutdown at once, and nothing is cut.
    @Test func aShutdownWithNothingLeftOpenDoesNotWaitForTheDrainTimeout() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            let lines = CapturedLines()
            let logger = Logger(label: "parley-gateway") { _ in CapturingLogHandler(lines: lines) }
            let began = try await withGateway(upstream: upstream, logger: logger,
                                              configure: { $0.drainTimeout = .seconds(60) }) { gateway in
                let answer = try await fetch("http://\(gateway.main)/value")
                #expect(answer.status == 200)
                return ContinuousClock.now
            }
            #expect(ContinuousClock.now - began < .seconds(10))
            #expect(!lines.all.contains { $0.contains("drain timeout") })
        }
    }

    @Test func theDrainTimeoutIsAConfigurationKey() throws {
        #expect(try GatewayConfiguration(yaml: Array("upstream: http://a\n".utf8)).drainTimeout == .seconds(30))
        let yaml = "upstream: http://a\ndrain_timeout: 2.5\n"
        #expect(try GatewayConfiguration(yaml: Array(yaml.utf8)).drainTimeout == .milliseconds(2500))
        #expect(throws: GatewayConfigurationError.self) {
            try GatewayConfiguration(yaml: Array("upstream: http://a\ndrain_timeout: 0\n".utf8))
        }
    }
}
