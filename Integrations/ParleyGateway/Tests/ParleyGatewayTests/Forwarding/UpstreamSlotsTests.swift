import Foundation
import NIOCore
import ParleyGateway
import Testing

/// The busy HTTP/1.1 connections to an upstream are bounded (`max_upstream_connections`), and
/// requests whose body is still arriving may hold only `max_upload_connections` of them (or of an
/// h2c upstream's streams): the rest is kept for requests that are ready, so slow uploads cannot
/// take every connection (the security review's finding 3).
@Suite(.timeLimit(.minutes(2))) struct UpstreamSlotsTests {
    /// Opens a connection that starts an upload of `length` bytes (1 MB) to `path` and sends 100 KB of it
    /// (past the request buffer, so the request goes upstream while the rest trickles).
    func startUpload(_ gateway: Gateway.Addresses, path: String = "/sink",
                     length: Int = 1_000_000) async throws -> RawConnection {
        let connection = try await RawConnection.open(port: gateway.main.port)
        try await connection.send("POST \(path) HTTP/1.1\r\nHost: gateway\r\nContent-Length: \(length)\r\n\r\n")
        try await connection.send(Array(repeating: 0x61, count: 100_000))
        return connection
    }

    @Test func aReadyRequestIsAnsweredWhileSlowUploadsHoldTheirShare() async throws {
        // The upstream serves 4 connections and leaves the others unread; the gateway may use 4,
        // 2 of them for uploads.
        try await ProbeUpstream.with(capacity: 4) { upstream in
            try await withGateway(upstream: upstream.url, configure: { configuration in
                configuration.maxUpstreamConnections = 4
                configuration.maxUploadConnections = 2
            }) { gateway in
                var uploads: [RawConnection] = []
                for _ in 0..<8 { uploads.append(try await startUpload(gateway)) }
                #expect(await eventually { upstream.sunk >= 200_000 }, "the upstream got \(upstream.sunk) bytes")
                try await Task.sleep(for: .milliseconds(300))
                #expect(upstream.accepted == 2, "uploads hold \(upstream.accepted) upstream connections")
                let started = ContinuousClock.now
                for _ in 0..<3 {
                    let answer = try await fetch("http://\(gateway.main)/ok", timeout: .seconds(5))
                    #expect(answer.status == 200)
                }
                #expect(ContinuousClock.now - started < .seconds(3))
                #expect(upstream.accepted <= 4)
                for upload in uploads { await upload.close() }
            }
        }
    }

    @Test func anUploadWaitsForItsShareAndGoesOnWhenOneEnds() async throws {
        try await ProbeUpstream.with { upstream in
            try await withGateway(upstream: upstream.url, configure: { configuration in
                configuration.maxUpstreamConnections = 2
                configuration.maxUploadConnections = 1
            }) { gateway in
                let first = try await startUpload(gateway)
                #expect(await eventually { upstream.sunk >= 100_000 })
                let second = try await startUpload(gateway)
                try await Task.sleep(for: .milliseconds(300))
                #expect(upstream.sunk < 200_000, "a second upload went upstream")
                // The first upload's client goes away: its connection comes free for the second.
                await first.close()
                #expect(await eventually { upstream.sunk >= 200_000 }, "the upstream got \(upstream.sunk) bytes")
                await second.close()
            }
        }
    }

    @Test func aRequestWaitingLongerThanTheUpstreamTimeoutIs504() async throws {
        try await ProbeUpstream.with { upstream in
            try await withGateway(upstream: upstream.url, configure: { configuration in
                configuration.maxUpstreamConnections = 1
                configuration.maxUploadConnections = 1
                configuration.upstreamTimeout = .milliseconds(500)
            }) { gateway in
                let upload = try await startUpload(gateway)
                #expect(await eventually { upstream.sunk >= 100_000 })
                let started = ContinuousClock.now
                let waited = try await fetch("http://\(gateway.main)/ok", timeout: .seconds(5))
                #expect(waited.status == 504, "\(waited.text)")
                #expect(ContinuousClock.now - started < .seconds(3))
                await upload.close()
                #expect(await eventually {
                    (try? await fetch("http://\(gateway.main)/ok", timeout: .seconds(2)).status) == 200
                })
            }
        }
    }

    @Test func uploadsOverH2CStreamsHoldTheUploadShareToo() async throws {
        // h2c streams share connections, but a stream still uploading holds a share of the
        // uploads, so slow uploads are bounded over h2c as over HTTP/1.1.
        try await H2CUpstream.with { h2c in
            try await withGateway(upstream: h2c.url, configure: { configuration in
                configuration.upstreamProtocol = .h2c
                configuration.maxUpstreamConnections = 2
                configuration.maxUploadConnections = 1
            }) { gateway in
                let first = try await startUpload(gateway)
                #expect(await eventually { h2c.streams == 1 })
                let second = try await startUpload(gateway)
                try await Task.sleep(for: .milliseconds(300))
                #expect(h2c.streams == 1, "\(h2c.streams) uploads went upstream with a share of 1")
                // A ready request takes no share: it is answered while the uploads wait.
                let started = ContinuousClock.now
                #expect(try await fetch("http://\(gateway.main)/value", timeout: .seconds(5)).status == 200)
                #expect(ContinuousClock.now - started < .seconds(3))
                // The first upload's client goes away: its share comes free for the second.
                await first.close()
                #expect(await eventually { h2c.streams == 3 }, "\(h2c.streams) streams opened")
                await second.close()
            }
        }
    }

    @Test func anH2CStreamGivesItsShareBackWhenItsBodyEnds() async throws {
        try await H2CUpstream.with { h2c in
            try await withGateway(upstream: h2c.url, configure: { configuration in
                configuration.upstreamProtocol = .h2c
                configuration.maxUpstreamConnections = 1
                configuration.maxUploadConnections = 1
            }) { gateway in
                // `/never` is not answered: the first stream stays open once its body has ended.
                let first = try await startUpload(gateway, path: "/never", length: 200_000)
                #expect(await eventually { h2c.streams == 1 })
                let second = try await startUpload(gateway)
                try await Task.sleep(for: .milliseconds(300))
                #expect(h2c.streams == 1, "a second upload went upstream")
                try await first.send(Array(repeating: 0x61, count: 100_000))
                #expect(await eventually { h2c.streams == 2 }, "the second upload still waits")
                await first.close()
                await second.close()
            }
        }
    }

    @Test func theLimitsAreConfigurationKeys() throws {
        let defaults = try GatewayConfiguration(yaml: Array("upstream: http://a\n".utf8))
        #expect(defaults.maxUpstreamConnections == 512 && defaults.maxUploadConnections == 384)
        let eight = try GatewayConfiguration(yaml: Array("upstream: http://a\nmax_upstream_connections: 8\n".utf8))
        #expect(eight.maxUpstreamConnections == 8 && eight.maxUploadConnections == 6)
        let yaml = "upstream: http://a\nmax_upstream_connections: 8\nmax_upload_connections: 2\n"
        #expect(try GatewayConfiguration(yaml: Array(yaml.utf8)).maxUploadConnections == 2)
        #expect(throws: GatewayConfigurationError.self) {
            try GatewayConfiguration(yaml: Array("upstream: http://a\nmax_upload_connections: 600\n".utf8))
        }
    }
}
