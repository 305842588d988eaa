import AsyncHTTPClient
import Foundation
import NIOCore
import Parley
import ParleyGateway
import Testing

/// The security review's reproductions (issue #33): what one client did to the gateway.
@Suite struct AttackTests {
    /// An upstream that answers 401 before reading a request body and keeps the connection,
    /// as a stock Node `http` server does.
    static let scripts: [String: [ScriptStep]] = [
        "/ok": ScriptedUpstream.healthy,
        "/early": [.send("HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"), .hold],
    ]

    @Test func anUpstreamThatAnswersBeforeTheBodyWhileTheClientGoesOnUploadingIsAnsweredAndServesOn() async throws {
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url).run("early answer mid-upload") { client in
                    let connection = try await RawConnection.open(port: gateway.main.port)
                    try await connection.send("POST /early HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/octet-stream\r\n"
                                              + "Content-Length: 100000\r\n\r\nhello")
                    for _ in 0..<10 {
                        try? await connection.send([UInt8](repeating: UInt8(ascii: "x"), count: 8_000))
                        try await Task.sleep(for: .milliseconds(2))
                    }
                    let answer = await connection.responses(1, within: .seconds(3)).first
                    await connection.close()
                    #expect(answer?.status == 401)
                    #expect(answer?.field("Connection") == "close")
                    try await FaultTests.expectServes(gateway, client: client)
                }
            }
        }
    }

    @Test func anUploadThatOutlastsTheUpstreamTimeoutIsServed() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { $0.upstreamTimeout = .milliseconds(300) }) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                let parts = 8
                let part = String(repeating: "y", count: 20_000)
                try await connection.send("POST /echo/slow HTTP/1.1\r\nHost: gateway\r\nAccept: application/json\r\n"
                                          + "Content-Type: text/plain\r\nContent-Length: \(parts * part.utf8.count)\r\n\r\n")
                let started = ContinuousClock.now
                for _ in 0..<parts {
                    try await connection.send(part)
                    try await Task.sleep(for: .milliseconds(100))
                }
                let answer = await connection.responses(1, within: .seconds(5)).first
                await connection.close()
                #expect(ContinuousClock.now - started > .milliseconds(600), "the upload took longer than the upstream timeout")
                #expect(answer?.status == 200, "\(String(decoding: answer?.body ?? [], as: UTF8.self))")
                let echoed = try answer.map { try Registry.linked.decode($0.body, contentType: MediaType(parsing: "application/json")) }
                #expect(echoed?["body"] == .string(String(repeating: part, count: parts)))
            }
        }
    }

    @Test func slowUploadsTakeNoUpstreamConnectionAndOthersAreServed() async throws {
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                var uploads: [RawConnection] = []
                for _ in 0..<40 {
                    let connection = try await RawConnection.open(port: gateway.main.port)
                    try await connection.send("POST /ok HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n"
                                              + "Content-Length: 1000\r\n\r\n[1,")
                    uploads.append(connection)
                }
                let started = ContinuousClock.now
                let answer = try await fetch("http://\(gateway.main)/ok", timeout: .seconds(5))
                #expect(answer.status == 200)
                #expect(ContinuousClock.now - started < .seconds(2))
                #expect(upstream.acceptedConnections == 1, "\(upstream.acceptedConnections) upstream connections")
                for connection in uploads { await connection.close() }
            }
        }
    }

    @Test func aClientThatStopsReadingIsCutOffAfterTheSendTimeoutInBoundedMemory() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { $0.sendTimeout = .milliseconds(500) }) { gateway in
                let total = 200_000_000
                let before = ProcessResources.measure()
                let connection = try await RawConnection.open(port: gateway.main.port, reading: false)
                try await connection.send("GET /bytes/\(total) HTTP/1.1\r\nHost: gateway\r\n\r\n")
                try await Task.sleep(for: .seconds(2))
                let stalled = ProcessResources.measure()
                try await connection.startReading()
                let closed = await connection.waitForClose(within: .seconds(10))
                await connection.close()
                #expect(closed, "the gateway kept a connection whose client read nothing for 2 s")
                #expect(connection.received.count < total, "the whole body arrived: nothing was cut")
                #expect(stalled.residentBytes - before.residentBytes < 64 << 20,
                        "resident memory \(before.residentBytes >> 20) -> \(stalled.residentBytes >> 20) MiB while the client stalled")
                let answer = try await fetch("http://\(gateway.main)/value", timeout: .seconds(5))
                #expect(answer.status == 200)
            }
        }
    }
}
