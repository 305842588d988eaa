import Foundation
import Parley
import ParleyGateway
import Testing

/// A connection error on an h2c client connection (RFC 9113 §5.4.1): the gateway sends `GOAWAY`
/// with the error's code and closes the connection at once, rather than leaving it open until its
/// idle timer (here a minute, the header timeout the tests set). Both ways into h2c: by prior
/// knowledge and by `Upgrade: h2c`.
@Suite(.timeLimit(.minutes(2))) struct H2CConnectionErrorTests {
    /// Well under the idle timeout: the close must not wait for it.
    static let promptly = Duration.seconds(3)

    /// A bad frame, and the error code the gateway's `GOAWAY` must carry.
    struct BadFrame: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var errorCode: UInt32
        var testDescription: String { name }
    }

    static let badFrames = [
        // A PING's payload is 8 bytes (§6.7).
        BadFrame(name: "malformed PING", bytes: H2Frame.bytes(type: 6, stream: 0, payload: [1, 2, 3, 4]),
                 errorCode: H2Frame.frameSizeError),
        // DATA belongs to a stream, never to the connection (§6.1).
        BadFrame(name: "DATA on stream 0", bytes: H2Frame.bytes(type: 0, stream: 0, payload: Array("data".utf8)),
                 errorCode: H2Frame.protocolError),
        // The connection window past 2^31-1 (§6.9.1).
        BadFrame(name: "window overflow", bytes: H2Frame.bytes(type: 8, stream: 0, payload: [0x7F, 0xFF, 0xFF, 0xFF]),
                 errorCode: H2Frame.flowControlError),
        // Longer than SETTINGS_MAX_FRAME_SIZE (16,384 by default, §4.2): the header alone says so.
        BadFrame(name: "oversized frame", bytes: [0, 0x40, 0x01, 0, 0, 0, 0, 0, 1], errorCode: H2Frame.frameSizeError),
    ]

    @Test(arguments: badFrames)
    func aConnectionErrorByPriorKnowledgeIsAnsweredWithGoAwayAndClosed(_ bad: BadFrame) async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { $0.headerTimeout = .seconds(60) }) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send(Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + H2Frame.settings)
                #expect(await eventually { H2Frame.parse(connection.received).contains { $0.type == 4 } })
                let sent = ContinuousClock.now
                try await connection.send(bad.bytes)
                #expect(await connection.waitForClose(within: Self.promptly), "still open after \(Self.promptly)")
                #expect(ContinuousClock.now - sent < Self.promptly)
                let goAway = H2Frame.parse(connection.received).first { $0.type == 7 }
                #expect(goAway?.errorCode == bad.errorCode, "GOAWAY: \(String(describing: goAway))")
            }
        }
    }

    @Test(arguments: badFrames)
    func aConnectionErrorAfterAnUpgradeIsAnsweredWithGoAwayAndClosed(_ bad: BadFrame) async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { $0.headerTimeout = .seconds(60) }) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send(Self.upgrade + "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
                try await connection.send(H2Frame.settings)
                // Stream 1, the upgraded request, is answered before the bad frame goes.
                #expect(await eventually {
                    H2Frame.parse(H2Frame.afterHead(connection.received)).contains { $0.stream == 1 && $0.endsStream }
                })
                let sent = ContinuousClock.now
                try await connection.send(bad.bytes)
                #expect(await connection.waitForClose(within: Self.promptly), "still open after \(Self.promptly)")
                #expect(ContinuousClock.now - sent < Self.promptly)
                let goAway = H2Frame.parse(H2Frame.afterHead(connection.received)).first { $0.type == 7 }
                #expect(goAway?.errorCode == bad.errorCode, "GOAWAY: \(String(describing: goAway))")
            }
        }
    }

    /// After `101 Switching Protocols` the client must open with HTTP/2's preface (RFC 9113 §3.4):
    /// anything else is a `PROTOCOL_ERROR`, answered with `GOAWAY` and a close, however short.
    @Test(arguments: ["PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n", "GET /value HTTP/1.1\r\nHost: gateway\r\n\r\n", "H"])
    func aBadPrefaceAfterAnUpgradeIsAnsweredWithGoAwayAndClosed(_ preface: String) async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { $0.headerTimeout = .seconds(60) }) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                let sent = ContinuousClock.now
                try await connection.send(Self.upgrade + preface)
                #expect(await connection.waitForClose(within: Self.promptly), "still open after \(Self.promptly)")
                #expect(ContinuousClock.now - sent < Self.promptly)
                #expect(String(decoding: connection.received, as: UTF8.self).hasPrefix("HTTP/1.1 101 "))
                let goAway = H2Frame.parse(H2Frame.afterHead(connection.received)).first { $0.type == 7 }
                #expect(goAway?.errorCode == H2Frame.protocolError, "GOAWAY: \(String(describing: goAway))")
            }
        }
    }

    /// A stream error is not a connection error: the stream is reset and the connection serves on.
    @Test func aStreamErrorLeavesTheConnectionOpen() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { $0.headerTimeout = .seconds(60) }) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send(Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + H2Frame.settings)
                // Stream 1 opened and left open (HEADERS without END_STREAM: GET /, HPACK static
                // entries and a literal authority), then a WINDOW_UPDATE of 0 on it: a stream error (§6.9).
                let head: [UInt8] = [0x82, 0x86, 0x84, 0x41, 0x07] + Array("gateway".utf8)
                try await connection.send(H2Frame.bytes(type: 1, flags: 0x4, stream: 1, payload: head))
                try await connection.send(H2Frame.bytes(type: 8, stream: 1, payload: [0, 0, 0, 0]))
                #expect(await eventually { H2Frame.parse(connection.received).contains { $0.type == 3 } },
                        "no RST_STREAM")
                try await Task.sleep(for: .milliseconds(500))
                #expect(!connection.isClosed)
                #expect(!H2Frame.parse(connection.received).contains { $0.type == 7 })
                await connection.close()
            }
        }
    }

    static let upgrade = "GET /value HTTP/1.1\r\nHost: gateway\r\nConnection: Upgrade, HTTP2-Settings\r\n"
        + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABk\r\n\r\n"
}

/// HTTP/2 frames as a raw-socket test writes and reads them (RFC 9113 §4.1).
struct H2Frame: Sendable, CustomStringConvertible {
    var type: UInt8
    var flags: UInt8
    var stream: UInt32
    var payload: [UInt8]

    static let protocolError: UInt32 = 0x1
    static let flowControlError: UInt32 = 0x3
    static let frameSizeError: UInt32 = 0x6

    /// An empty SETTINGS frame.
    static let settings: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 0, 0]

    /// A GOAWAY's error code.
    var errorCode: UInt32? {
        guard type == 7, payload.count >= 8 else { return nil }
        return payload[4..<8].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Whether it is HEADERS or DATA with END_STREAM.
    var endsStream: Bool { (type == 0 || type == 1) && flags & 1 != 0 }

    var description: String {
        "type \(type) flags \(flags) stream \(stream) error \(errorCode.map(String.init) ?? "-")"
    }

    static func bytes(type: UInt8, flags: UInt8 = 0, stream: UInt32, payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8),
                UInt8(truncatingIfNeeded: length), type, flags,
                UInt8(truncatingIfNeeded: stream >> 24), UInt8(truncatingIfNeeded: stream >> 16),
                UInt8(truncatingIfNeeded: stream >> 8), UInt8(truncatingIfNeeded: stream)] + payload
    }

    /// The whole frames at the start of `bytes`.
    static func parse(_ bytes: [UInt8]) -> [H2Frame] {
        var frames: [H2Frame] = []
        var index = 0
        while bytes.count - index >= 9 {
            let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            guard bytes.count - index - 9 >= length else { break }
            let stream = bytes[(index + 5)..<(index + 9)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
            frames.append(H2Frame(type: bytes[index + 3], flags: bytes[index + 4], stream: stream,
                                  payload: Array(bytes[(index + 9)..<(index + 9 + length)])))
            index += 9 + length
        }
        return frames
    }

    /// What follows the first HTTP/1.1 head (a 101's) in `bytes`, or nothing before it is whole.
    static func afterHead(_ bytes: [UInt8]) -> [UInt8] {
        guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else { return [] }
        return Array(bytes[end.upperBound...])
    }
}
