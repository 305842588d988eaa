import Foundation
import ParleyGateway
import Testing

/// An upstream that answers `101 Switching Protocols` to a request that asked for no upgrade (the
/// gateway forwards no `Upgrade` field) and then speaks another protocol: the client gets 502 and
/// none of the upstream's bytes, the upstream connection is closed, and the gateway serves on.
@Suite(.serialized, .timeLimit(.minutes(1))) struct UnsolicitedSwitchTests {
    static let frame = "\u{1}websocket-frame"
    static let scripts: [String: [ScriptStep]] = [
        "/ok": ScriptedUpstream.healthy,
        "/switch": [
            .send("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
                  + Self.frame),
            .hold,
        ],
    ]

    @Test(arguments: ["", "Connection: Upgrade\r\nUpgrade: websocket\r\n"])
    func anUnsolicited101Is502AndNothingOfItIsPassedOn(upgrade: String) async throws {
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url, configure: { $0.upstreamTimeout = .seconds(2) }) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url).run("unsolicited 101") {
                    let connection = try await RawConnection.open(port: gateway.main.port)
                    try await connection.send("GET /switch HTTP/1.1\r\nHost: gateway\r\n\(upgrade)\r\n")
                    let answer = await connection.responses(1, within: .seconds(1)).first
                    let received = String(decoding: connection.received, as: UTF8.self)
                    await connection.close()
                    #expect(answer?.status == 502, "\(received)")
                    #expect(answer.flatMap { problemDetail($0.body, contentType: $0.field("Content-Type")) }?
                        .contains("switched protocols (101)") == true, "\(received)")
                    #expect(!received.contains("websocket"), "the upstream's switch reached the client")
                }
            }
        }
    }
}
