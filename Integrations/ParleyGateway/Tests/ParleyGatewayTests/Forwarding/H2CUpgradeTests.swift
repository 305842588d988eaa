import Foundation
import NIOCore
import Parley
@testable import ParleyGateway
import Testing

/// The upgrade of an HTTP/1.1 connection to h2c (`Upgrade: h2c`, RFC 7540 §3.2), driven by the
/// clients that send it: `curl --http2` and `nghttp -u`. The request that asked becomes stream 1
/// and goes through the same forwarding, policy and limits as any h2c stream; an upgrade the
/// gateway does not take is answered over HTTP/1.1.
@Suite(.timeLimit(.minutes(2))) struct H2CUpgradeTests {
    /// What `curl -w` prints after each transfer: the protocol, the status, new connections.
    static let writeOut = "%{http_version} %{response_code} %{num_connects}\\n"

    func decoded(_ body: [UInt8], as type: String) throws -> Value {
        try Registry.linked.decode(body, contentType: MediaType(parsing: type))
    }

    /// What a curl run printed (`-w` after each transfer), how it ended, and the bodies it received.
    struct CurlFetch {
        var status: Int32
        var output: String
        var errors: String
        var bodies: [[UInt8]]
    }

    /// Runs curl with `options` for `urls` on one command line (so that it may use one connection
    /// for all), `-w` printing `writeOut` after each transfer, each body written to a file of its own.
    func curl(_ options: [String], _ urls: [String], writeOut: String = Self.writeOut) async throws -> CurlFetch {
        try #require(CommandLineClient.curl.isInstalled, "curl is not installed")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("h2c-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = urls.indices.map { folder.appendingPathComponent("body\($0)") }
        let transfers = zip(files, urls).flatMap { ["-o", $0.path, $1] }
        let run = try await CommandLineClient.curl.run(["-s", "-w", writeOut] + options + transfers)
        return CurlFetch(status: run.status, output: run.output, errors: run.errors,
                         bodies: files.map { (try? Data(contentsOf: $0)).map { Array($0) } ?? [] })
    }

    @Test func curlUpgradesAndSendsSeveralRequestsOnTheUpgradedConnection() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let base = "http://127.0.0.1:\(gateway.main.port)"
                let urls = ["\(base)/value", "\(base)/echo/second?x=1", "\(base)/value?again"]
                let run = try await curl(["--http2"], urls)
                #expect(run.status == 0, "\(run.errors)")
                // One connection, upgraded with the first request and used for the next two.
                #expect(run.output == "2 200 1\n2 200 0\n2 200 0\n", "\(run.output)")
                #expect(try decoded(run.bodies[0], as: "application/json") == TestUpstream.value)
                #expect(try decoded(run.bodies[2], as: "application/json") == TestUpstream.value)
                let echoed = try decoded(run.bodies[1], as: "application/json")
                #expect(echoed["method"] == .string("GET"))
                #expect(echoed["path"] == .string("/echo/second?x=1"))
                #expect(echoed["fields"]?["via"] == .array([.string("1.1 parley-gateway")]))
            }
        }
    }

    @Test func theUpgradedRequestIsForwardedWithoutTheUpgradeAndThroughThePolicyOnce() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let run = try await curl(["--http2", "-H", "X-Forwarded-For: 203.0.113.9", "-H", "X_User: mallory"],
                                         ["http://127.0.0.1:\(gateway.main.port)/echo/a/../up"])
                #expect(run.output == "2 200 1\n", "\(run.output) \(run.errors)")
                let echoed = try decoded(run.bodies[0], as: "application/json")
                // The policy's rewriting, once: the path normalised, the untrusted client's
                // forwarding field replaced by its address, the underscore field dropped.
                #expect(echoed["path"] == .string("/echo/up"))
                #expect(echoed["fields"]?["x-forwarded-for"] == .array([.string("127.0.0.1")]))
                #expect(echoed["fields"]?["x_user"] == nil)
                let names = echoed["fields"]?.objectValue.map { Array($0.keys) } ?? []
                for name in ["upgrade", "http2-settings", "connection"] {
                    #expect(!names.contains(name), "\(name) was forwarded: \(names)")
                }
            }
        }
    }

    @Test func anUpgradedHeadLongerThanAFrameGoesOnInContinuationFrames() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { $0.maxHeaderBytes = 65_536 }) { gateway in
                // Random letters: HPACK's Huffman code cannot bring 40,000 of them under 16 KiB.
                let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
                let big = String((0..<40_000).map { _ in letters.randomElement()! })
                let run = try await curl(["--http2", "-H", "X-Big: \(big)"],
                                         ["http://127.0.0.1:\(gateway.main.port)/echo/big"])
                #expect(run.output == "2 200 1\n", "\(run.output) \(run.errors)")
                let echoed = try decoded(run.bodies[0], as: "application/json")
                #expect(echoed["fields"]?["x-big"] == .array([.string(big)]))
            }
        }
    }

    @Test func curlGetsATranscodeOnTheUpgradedStream() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let run = try await curl(["--http2", "-H", "Accept: application/json;q=0.1, application/yaml"],
                                         ["http://127.0.0.1:\(gateway.main.port)/value"],
                                         writeOut: "%{http_version} %{response_code} %{content_type}\\n")
                #expect(run.output.hasPrefix("2 200 application/yaml"), "\(run.output) \(run.errors)")
                #expect(try decoded(run.bodies[0], as: "application/yaml") == TestUpstream.value)
            }
        }
    }

    @Test func nghttpUpgradesAndStreamOneIsAnswered() async throws {
        try #require(CommandLineClient.nghttp.isInstalled, "nghttp is not installed")
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let base = "http://127.0.0.1:\(gateway.main.port)"
                let run = try await CommandLineClient.nghttp.run(["-u", "-v", "\(base)/value", "\(base)/echo/three"])
                #expect(run.status == 0, "\(run.errors)")
                #expect(run.output.contains("HTTP Upgrade success"), "\(run.output)")
                // The upgraded request is stream 1; the next request opens another stream of the connection.
                #expect(run.output.contains("(stream_id=1) :status: 200"), "\(run.output)")
                #expect(run.output.components(separatedBy: ":status: 200").count == 3, "\(run.output)")
                #expect(run.output.components(separatedBy: "] Connected").count == 2, "\(run.output)")
                #expect(run.output.contains(#""name":"Grace""#), "\(run.output)")
                #expect(run.output.contains(#""path":"/echo/three""#), "\(run.output)")
            }
        }
    }

    @Test func anUpgradeAnswersSwitchingProtocolsThenTheServersSettings() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send("GET /value HTTP/1.1\r\nHost: gateway\r\n"
                                          + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                                          + "HTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\n")
                let head = Array("HTTP/1.1 101 Switching Protocols\r\n".utf8)
                var received: [UInt8] = []
                for _ in 0..<250 where !(received.count > head.count + 64 && received.contains(10)) {
                    try await Task.sleep(for: .milliseconds(20))
                    received = connection.received
                }
                #expect(Array(received.prefix(head.count)) == head)
                let text = String(decoding: received, as: UTF8.self).lowercased()
                #expect(text.contains("connection: upgrade\r\n") && text.contains("upgrade: h2c\r\n"), "\(text)")
                // The server's connection preface, a SETTINGS frame, is the first thing after the 101's head.
                let end = Array("\r\n\r\n".utf8)
                let headEnd = (0...(received.count - end.count)).first { Array(received[$0..<($0 + 4)]) == end }
                let frame = try #require(headEnd.map { received.dropFirst($0 + end.count) })
                #expect(frame.count >= 9 && frame[frame.startIndex + 3] == 4 && frame[frame.startIndex + 4] == 0)
                await connection.close()
            }
        }
    }

    /// An upgraded connection whose client sends no HTTP/2 preface is closed: at the header timeout
    /// when it sends nothing, at once when it goes on with HTTP/1.1 (a request pipelined behind the
    /// upgrade), well before the header timeout.
    @Test(arguments: zip(["", "GET /echo/pipelined HTTP/1.1\r\nHost: gateway\r\n\r\n"], [1, 60]))
    func anUpgradedConnectionThatSendsNoPrefaceIsClosed(after following: String, headerTimeout: Int) async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream,
                                  configure: { $0.headerTimeout = .seconds(headerTimeout) }) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send("GET /value HTTP/1.1\r\nHost: gateway\r\n\(Self.h2cUpgrade)\r\n\(following)")
                #expect(await connection.waitForClose(within: .seconds(10)))
                #expect(String(decoding: connection.received, as: UTF8.self).hasPrefix("HTTP/1.1 101 "))
            }
        }
    }

    @Test func anUpgradeWithABodyIsAnsweredOverHTTP1AndTheConnectionCloses() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send("POST /echo/body HTTP/1.1\r\nHost: gateway\r\nContent-Length: 5\r\n"
                                          + "Content-Type: text/plain\r\n"
                                          + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                                          + "HTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\nhello")
                let answer = try #require(await connection.responses(1, within: .seconds(10)).first)
                #expect(answer.status == 200)
                #expect(answer.field("Connection")?.lowercased() == "close")
                let echoed = try decoded(answer.body, as: answer.field("Content-Type") ?? "")
                #expect(echoed["body"] == .string("hello"))
                #expect(echoed["fields"]?["upgrade"] == nil)
                #expect(await connection.waitForClose(within: .seconds(5)))
            }
        }
    }

    @Test func curlPostingABodyGetsItsAnswerOverHTTP1() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let run = try await curl(["--http2", "-H", "Content-Type: text/plain", "--data-binary", "posted"],
                                         ["http://127.0.0.1:\(gateway.main.port)/echo/post"])
                #expect(run.output == "1.1 200 1\n", "\(run.output) \(run.errors)")
                #expect(try decoded(run.bodies[0], as: "application/json")["body"] == .string("posted"))
            }
        }
    }

    /// Upgrades the gateway does not take: the request is answered over HTTP/1.1, then the
    /// connection closes.
    @Test(arguments: [
        "HTTP2-Settings: !!!!\r\n",                                       // not base64url
        "HTTP2-Settings: AAMAAA\r\n",                                     // 4 bytes: no whole setting
        "HTTP2-Settings: AAIAAAAC\r\n",                                   // ENABLE_PUSH 2
        "HTTP2-Settings: AAMAAABk\r\nHTTP2-Settings: AAMAAABk\r\n",       // two fields
        "",                                                               // none
    ])
    func anUpgradeWithoutOneValidHTTP2SettingsIsAnsweredOverHTTP1(settings: String) async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send("GET /value HTTP/1.1\r\nHost: gateway\r\n"
                                          + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n\(settings)\r\n")
                let answer = try #require(await connection.responses(1, within: .seconds(10)).first)
                #expect(answer.status == 200)
                #expect(try decoded(answer.body, as: answer.field("Content-Type") ?? "") == TestUpstream.value)
                #expect(answer.field("Connection")?.lowercased() == "close")
                #expect(await connection.waitForClose(within: .seconds(5)))
            }
        }
    }

    static let webSocketUpgrade = "Connection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n"
        + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    static let h2cUpgrade = "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABk\r\n"

    /// A request asking for an upgrade the gateway does not take (any but h2c on a connection's
    /// first request), first on its connection or after others: answered over HTTP/1.1, then the
    /// connection closes at once (not at the header timeout), leaving a request pipelined behind it
    /// unanswered (NIO's decoder reads nothing past a request that asks for an upgrade).
    @Test(arguments: zip([0, 2, 2], [webSocketUpgrade, webSocketUpgrade, h2cUpgrade]))
    func aRequestAskingForAnUpgradeIsAnsweredOverHTTP1AndItsConnectionCloses(after earlier: Int,
                                                                            upgrade: String) async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { $0.headerTimeout = .seconds(60) }) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                for index in 0..<earlier {
                    try await connection.send("GET /echo/earlier\(index) HTTP/1.1\r\nHost: gateway\r\n\r\n")
                    #expect(await connection.responses(index + 1, within: .seconds(10)).count == index + 1)
                }
                try await connection.send("GET /echo/asking HTTP/1.1\r\nHost: gateway\r\n\(upgrade)\r\n"
                                          + "GET /echo/pipelined HTTP/1.1\r\nHost: gateway\r\n\r\n")
                #expect(await connection.waitForClose(within: .seconds(10)))
                let answers = RawResponse.parse(connection.received)
                #expect(answers.map(\.status) == Array(repeating: 200, count: earlier + 1))
                let answer = try #require(answers.last)
                #expect(answer.field("Connection")?.lowercased() == "close")
                let echoed = try decoded(answer.body, as: answer.field("Content-Type") ?? "")
                #expect(echoed["path"] == .string("/echo/asking"))
                #expect(echoed["fields"]?["upgrade"] == nil)
            }
        }
    }

    @Test func anUpgradeConnectionDoesNotNameIsIgnoredAndTheConnectionStays() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send("GET /value HTTP/1.1\r\nHost: gateway\r\nConnection: HTTP2-Settings\r\n"
                                          + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABk\r\n\r\n"
                                          + "GET /echo/next HTTP/1.1\r\nHost: gateway\r\n\r\n")
                let answers = await connection.responses(2, within: .seconds(10))
                #expect(answers.map(\.status) == [200, 200])
                #expect(answers.first?.field("Connection")?.lowercased() != "close")
                await connection.close()
            }
        }
    }

    @Test func curlWithAMalformedHTTP2SettingsGetsHTTP1() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let run = try await curl([
                    "-H", "Connection: Upgrade, HTTP2-Settings", "-H", "Upgrade: h2c", "-H", "HTTP2-Settings: AAMAAA",
                ], ["http://127.0.0.1:\(gateway.main.port)/value"])
                #expect(run.output == "1.1 200 1\n", "\(run.output) \(run.errors)")
                #expect(try decoded(run.bodies[0], as: "application/json") == TestUpstream.value)
            }
        }
    }

    @Test func anUpgradeTheHeadPolicyRefusesIsAnsweredOverHTTP1() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let upgrade = "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABk\r\n"
                let big = String(repeating: "b", count: 20_000)   // over the 16 KiB of header fields
                for (request, status) in [("GET /value HTTP/1.1\r\n\(upgrade)\r\n", 400),                 // no Host
                                          ("GET /value HTTP/1.1\r\nHost: a\r\nHost: b\r\n\(upgrade)\r\n", 400),
                                          ("TRACE /value HTTP/1.1\r\nHost: a\r\n\(upgrade)\r\n", 405),
                                          ("GET /value HTTP/1.1\r\nHost: a\r\nX-Big: \(big)\r\n\(upgrade)\r\n", 431)] {
                    let connection = try await RawConnection.open(port: gateway.main.port)
                    try await connection.send(request)
                    let answer = await connection.responses(1, within: .seconds(10)).first
                    #expect(answer?.status == status, "\(request.prefix(40))")
                    #expect(await connection.waitForClose(within: .seconds(5)))
                }
            }
        }
    }

    @Test func plainHTTP1RequestsAreUnaffected() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send("GET /value HTTP/1.1\r\nHost: gateway\r\n\r\n"
                                          + "GET /echo/keep HTTP/1.1\r\nHost: gateway\r\n\r\n")
                let answers = await connection.responses(2, within: .seconds(10))
                #expect(answers.map(\.status) == [200, 200])
                #expect(answers.allSatisfy { $0.field("Connection")?.lowercased() != "close" })
                #expect(!connection.isClosed)
                await connection.close()
                let run = try await curl(["--http1.1"], Array(repeating: "http://127.0.0.1:\(gateway.main.port)/value",
                                                               count: 2))
                #expect(run.output == "1.1 200 1\n1.1 200 0\n", "\(run.output) \(run.errors)")
            }
        }
    }

    @Test func theSettingsFieldIsReadAsBase64URLSettings() {
        // curl's value: MAX_CONCURRENT_STREAMS 100, INITIAL_WINDOW_SIZE 33554432, ENABLE_PUSH 0.
        #expect(UpgradedRequest.settingsPayload("AAMAAABkAAQCAAAAAAIAAAAA") ==
                [0, 3, 0, 0, 0, 100, 0, 4, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0])
        #expect(UpgradedRequest.settingsPayload("") == [])
        #expect(UpgradedRequest.settingsPayload("AAUAAEAA") == [0, 5, 0, 0, 64, 0])         // MAX_FRAME_SIZE 16384
        #expect(UpgradedRequest.settingsPayload("AAT_____") == nil)                         // window over 2^31-1
        #expect(UpgradedRequest.settingsPayload("AAUAAD__") == nil)                         // frame size under 16384
        #expect(UpgradedRequest.settingsPayload("AAMAAABk+") == nil)                        // base64, not base64url
        #expect(UpgradedRequest.settingsPayload("AAMAAABl") == [0, 3, 0, 0, 0, 101])
        #expect(UpgradedRequest.settingsPayload(String(repeating: "AAMAAABk", count: 65)) == nil)   // over 64
    }
}
