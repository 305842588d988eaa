import Foundation
import NIOCore
import Parley
import ParleyGateway
import Testing

/// The security review's reproductions (issue #33): what one client did to the gateway. One at a
/// time: the fault loop counts the process's sockets, and another attack's would count too.
@Suite(.serialized, .timeLimit(.minutes(2))) struct AttackTests {
    /// An upstream that answers 401 before reading a request body and keeps the connection,
    /// as a stock Node `http` server does.
    static let scripts: [String: [ScriptStep]] = [
        "/ok": ScriptedUpstream.healthy,
        "/early": [
            .send("HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"), .hold,
        ],
    ]

    @Test func anUpstreamThatAnswersBeforeTheBodyWhileTheClientGoesOnUploadingIsAnsweredAndServesOn() async throws {
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url).run("early answer, upload goes on") {
                    let connection = try await RawConnection.open(port: gateway.main.port)
                    try await connection.send("POST /early HTTP/1.1\r\nHost: gateway\r\n"
                                              + "Content-Type: application/octet-stream\r\n"
                                              + "Content-Length: 100000\r\n\r\nhello")
                    for _ in 0..<10 {
                        try? await connection.send([UInt8](repeating: UInt8(ascii: "x"), count: 8_000))
                        try await Task.sleep(for: .milliseconds(2))
                    }
                    let answer = await connection.responses(1, within: .seconds(3)).first
                    await connection.close()
                    #expect(answer?.status == 401)
                    #expect(answer?.field("Connection") == "close")
                }
            }
        }
    }

    @Test func anUploadThatOutlastsTheUpstreamTimeoutIsServed() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            let timeout = Duration.milliseconds(300)
            try await withGateway(upstream: upstream, configure: { $0.upstreamTimeout = timeout }) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                let parts = 8
                let part = String(repeating: "y", count: 20_000)
                try await connection.send("POST /echo/slow HTTP/1.1\r\nHost: gateway\r\nAccept: application/json\r\n"
                                          + "Content-Type: text/plain\r\n"
                                          + "Content-Length: \(parts * part.utf8.count)\r\n\r\n")
                let started = ContinuousClock.now
                for _ in 0..<parts {
                    try await connection.send(part)
                    try await Task.sleep(for: .milliseconds(100))
                }
                let answer = await connection.responses(1, within: .seconds(5)).first
                await connection.close()
                #expect(ContinuousClock.now - started > timeout * 2, "the upload outlasted the upstream timeout")
                #expect(answer?.status == 200, "\(String(decoding: answer?.body ?? [], as: UTF8.self))")
                let json = try MediaType(parsing: "application/json")
                let echoed = try answer.map { try Registry.linked.decode($0.body, contentType: json) }
                #expect(echoed?["body"] == .string(String(repeating: part, count: parts)))
            }
        }
    }

    @Test func anUploadThatOutlastsTheUploadTimeoutIs408AndClosed() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            let timeout = Duration.milliseconds(500)
            try await withGateway(upstream: upstream, configure: { $0.uploadTimeout = timeout }) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send("POST /echo/slow HTTP/1.1\r\nHost: gateway\r\nContent-Type: text/plain\r\n"
                                          + "Content-Length: 1000\r\n\r\n")
                let started = ContinuousClock.now
                for _ in 0..<20 where !connection.isClosed {
                    try? await connection.send("z")
                    try await Task.sleep(for: .milliseconds(100))
                }
                let answer = await connection.responses(1, within: .seconds(1)).first
                let closed = await connection.waitForClose(within: .seconds(3))
                await connection.close()
                #expect(answer?.status == 408)
                #expect(answer?.field("Connection") == "close")
                #expect(closed)
                #expect(ContinuousClock.now - started < .seconds(4), "a steady trickle was cut off in time")
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
                let (was, grew) = (before.residentBytes >> 20, stalled.residentBytes >> 20)
                #expect(stalled.residentBytes - before.residentBytes < 64 << 20,
                        "resident memory \(was) -> \(grew) MiB while the client stalled")
                let answer = try await fetch("http://\(gateway.main)/value", timeout: .seconds(5))
                #expect(answer.status == 200)
            }
        }
    }

    @Test func aClientThatPausesForLessThanTheSendTimeoutIsNotCutOff() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { $0.sendTimeout = .seconds(1) }) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port, reading: false)
                try await connection.send("GET /bytes/200000000 HTTP/1.1\r\nHost: gateway\r\n\r\n")
                // Reads in bursts, each more than the socket buffers between hold, with pauses of 400 ms
                // between them for three send timeouts: the gateway's writes wait often, never for
                // a whole send timeout.
                func burst() async throws {
                    for _ in 0..<200 {
                        connection.readOnce()
                        try await Task.sleep(for: .milliseconds(1))
                    }
                }
                for _ in 0..<5 {
                    try await burst()
                    try await Task.sleep(for: .milliseconds(400))
                }
                let before = connection.received.count
                // Past what the gateway had written before any close: a cut connection ends here.
                try await burst()
                let cut = connection.isClosed
                let after = connection.received.count
                await connection.close()
                #expect(!cut, "the gateway closed a connection whose client paused for 400 ms at a time")
                #expect(after > before, "nothing arrived in the last burst")
            }
        }
    }
}

/// A client that waits for `100 Continue` before its body is told to go on by the gateway, which
/// reads the body before the upstream sees the request.
@Suite(.timeLimit(.minutes(2))) struct ExpectContinueTests {
    @Test func aClientExpecting100ContinueIsAnsweredAtOnceAndItsBodyGoesUpstream() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send("POST /echo/expect HTTP/1.1\r\nHost: gateway\r\nAccept: application/json\r\n"
                                          + "Content-Type: text/plain\r\nContent-Length: 5\r\n"
                                          + "Expect: 100-continue\r\n\r\n")
                let continued = await connection.responses(1, within: .seconds(2)).first
                #expect(continued?.status == 100)
                try await connection.send("hello")
                let answers = await connection.responses(2, within: .seconds(3))
                await connection.close()
                #expect(answers.last?.status == 200)
                let json = try MediaType(parsing: "application/json")
                let echoed = try answers.last.map { try Registry.linked.decode($0.body, contentType: json) }
                #expect(echoed?["body"] == .string("hello"))
                #expect(echoed?["fields"]?["Expect"] == nil, "the upstream is not asked to send 100 Continue")
            }
        }
    }
}
