import Foundation
import ParleyGateway
import Testing

/// A connection with no request under way is closed silently after the header timeout (no
/// unsolicited 408: that is only for a head that started and did not finish), on the main port
/// and on the admin port, which has the same header timeout.
@Suite(.timeLimit(.minutes(2))) struct IdleConnectionTests {
    static let timeout = Duration.milliseconds(500)

    @Test func anIdleKeepAliveConnectionIsClosedSilentlyAfterTheHeaderTimeout() async throws {
        try await ScriptedUpstream.with(["/ok": ScriptedUpstream.healthy]) { upstream in
            try await withGateway(upstream: upstream.url, configure: { $0.headerTimeout = Self.timeout }) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send("GET /ok HTTP/1.1\r\nHost: gateway\r\n\r\n")
                let answered = await connection.responses(1, within: .seconds(3))
                #expect(answered.first?.status == 200)
                let idleSince = ContinuousClock.now
                let closed = await connection.waitForClose(within: .seconds(3))
                let lasted = ContinuousClock.now - idleSince
                let answers = RawResponse.parse(connection.received)
                await connection.close()
                #expect(closed, "the idle connection was kept open")
                #expect(lasted >= .milliseconds(400), "closed after \(lasted)")
                #expect(answers.count == 1, "\(answers.map(\.status)): an idle connection got an unsolicited answer")
            }
        }
    }

    @Test func aConnectionThatSendsNothingIsClosedSilently() async throws {
        try await ScriptedUpstream.with(["/ok": ScriptedUpstream.healthy]) { upstream in
            try await withGateway(upstream: upstream.url, configure: { $0.headerTimeout = Self.timeout }) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                let closed = await connection.waitForClose(within: .seconds(3))
                let received = connection.received
                await connection.close()
                #expect(closed)
                #expect(received.isEmpty, "\(String(decoding: received, as: UTF8.self))")
            }
        }
    }

    @Test func theAdminPortClosesAnIdleConnectionAndAnswersAStalledHead408() async throws {
        try await ScriptedUpstream.with(["/ok": ScriptedUpstream.healthy]) { upstream in
            try await withGateway(upstream: upstream.url, configure: { configuration in
                configuration.headerTimeout = Self.timeout
                configuration.admin = HostAndPort(host: "127.0.0.1", port: 0)
            }) { gateway in
                let admin = try #require(gateway.admin)
                let idle = try await RawConnection.open(port: admin.port)
                try await idle.send("GET /health HTTP/1.1\r\nHost: admin\r\n\r\n")
                #expect(await idle.responses(1, within: .seconds(3)).first?.status == 200)
                let idleClosed = await idle.waitForClose(within: .seconds(3))
                let idleAnswers = RawResponse.parse(idle.received)
                await idle.close()
                #expect(idleClosed, "the admin port kept an idle connection")
                #expect(idleAnswers.count == 1)

                let stalled = try await RawConnection.open(port: admin.port)
                let started = ContinuousClock.now
                try await stalled.send("GET /health HTTP/1.1\r\nHost: ad")
                let stalledClosed = await stalled.waitForClose(within: .seconds(3))
                let lasted = ContinuousClock.now - started
                let answer = RawResponse.parse(stalled.received).first
                await stalled.close()
                #expect(stalledClosed, "the admin port waited on a stalled head")
                #expect(lasted < .seconds(2), "cut off after \(lasted)")
                #expect(answer?.status == 408)
                #expect(answer?.field("Connection") == "close")
            }
        }
    }
}
