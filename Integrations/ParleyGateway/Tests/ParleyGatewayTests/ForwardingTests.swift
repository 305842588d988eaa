import Foundation
import NIOCore
import NIOHTTP1
import Parley
import ParleyHTTP
import ParleyGateway
import Testing

/// What crosses the gateway on the way up and down: fields, `Via`, `Host`, `Accept`, bodies.
@Suite(.timeLimit(.minutes(3))) struct ForwardingTests {
    /// The upstream's echo of a request, read as a value.
    func echoed(_ answer: Answer) throws -> Value {
        try Registry.linked.decode(answer.body,
                                   contentType: MediaType(parsing: answer.header("Content-Type") ?? "application/json"))
    }

    func field(_ echo: Value, _ name: String) -> [String] {
        echo["fields"]?[name]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    @Test func methodPathQueryBodyAndEndToEndFieldsGoUpstreamHopByHopFieldsDoNot() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let answer = try await fetch("http://\(gateway.main)/echo/a/b?x=1&y=%20z", method: .PUT,
                                             headers: [("Accept", "application/json"), ("X-Custom", "one"),
                                                       ("X-Custom", "two"),
                                                       ("Connection", "X-Client-Secret"), ("X-Client-Secret", "s"),
                                                       ("Keep-Alive", "timeout=5"), ("TE", "trailers"),
                                                       ("Proxy-Authorization", "Basic eDp5"),
                                                       ("Content-Type", "text/plain")],
                                             body: Array("hello upstream".utf8))
                #expect(answer.status == 200)
                let echo = try echoed(answer)
                #expect(echo["method"] == .string("PUT"))
                #expect(echo["path"] == .string("/echo/a/b?x=1&y=%20z"))
                #expect(echo["body"] == .string("hello upstream"))
                #expect(field(echo, "x-custom") == ["one", "two"])
                #expect(field(echo, "content-type") == ["text/plain"])
                #expect(field(echo, "via") == ["1.1 parley-gateway"])
                for dropped in ["x-client-secret", "keep-alive", "te", "proxy-authorization"] {
                    #expect(field(echo, dropped).isEmpty, "\(dropped) crossed the gateway")
                }
                // Host follows the upstream, not the gateway.
                #expect(echo["authority"] == .string("\(upstream.host!):\(upstream.port!)"))
            }
        }
    }

    @Test func hopByHopResponseFieldsAreDroppedAndViaIsAdded() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let answer = try await fetch("http://\(gateway.main)/hop")
                #expect(answer.status == 200)
                #expect(answer.text == "hop")
                #expect(answer.header("X-Upstream-Secret") == nil)
                #expect(answer.header("Keep-Alive") == nil)
                #expect(answer.header("X-End-To-End") == "kept")
                #expect(answer.header("Via") == "1.1 parley-gateway")
            }
        }
    }

    @Test func aClientThatSaysConnectionCloseIsToldTheConnectionCloses() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                for (path, accept) in [("/hop", "*/*"), ("/value", "application/yaml"), ("/value", "image/png"),
                                       ("/missing-route", "*/*")] {
                    let connection = try await RawConnection.open(port: gateway.main.port)
                    try await connection.send("GET \(path) HTTP/1.1\r\nHost: gateway\r\nAccept: \(accept)\r\n"
                                              + "Connection: close\r\n\r\n")
                    let closed = await connection.waitForClose(within: .seconds(5))
                    let answer = RawResponse.parse(connection.received).first
                    #expect(closed, "\(path): the connection stayed open")
                    #expect(answer?.field("Connection") == "close", "\(path): \(answer?.fields ?? [])")
                }
                // A keep-alive request is not told to close.
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send("GET /hop HTTP/1.1\r\nHost: gateway\r\n\r\n")
                let answer = await connection.responses(1, within: .seconds(5)).first
                #expect(answer?.status == 200)
                #expect(answer?.field("Connection") == nil)
                #expect(!connection.isClosed)
                await connection.close()
            }
        }
    }

    @Test func theUpstreamIsAskedForTheClientsTypesFirstThenWhatTheGatewayCanTranscode() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                // The echo comes back as JSON, which the client does not accept: transcoded to YAML.
                let answer = try await fetch("http://\(gateway.main)/echo/accept",
                                             headers: [("Accept", "application/yaml, text/csv;q=0.8")])
                #expect(answer.header("Content-Type") == "application/yaml; charset=utf-8")
                let accept = try #require(field(try echoed(answer), "accept").first)
                #expect(accept.hasPrefix("application/yaml, text/csv;q=0.8, "))
                #expect(accept.contains("application/json;q=0.4"))
                #expect(accept.contains("application/msgpack;q=0.4"))
                #expect(!accept.contains("application/yaml;q"))   // what the client asked for is not repeated
                // The upstream, negotiating with it, still prefers what the client asked for.
                let offers = [try MediaType(parsing: "application/json"), try MediaType(parsing: "application/yaml")]
                #expect(AcceptNegotiator(offers: offers).preferredOffer(forAccept: accept)?.essence
                        == "application/yaml")

                let anything = try await fetch("http://\(gateway.main)/echo/any", headers: [("Accept", "*/*")])
                #expect(field(try echoed(anything), "accept") == ["*/*"])
                let none = try await fetch("http://\(gateway.main)/echo/none")
                #expect(field(try echoed(none), "accept").isEmpty)
            }
        }
    }

    @Test func aRoutesRequestBodyIsTranscodedToTheTypeItsUpstreamAccepts() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: {
                $0.routes = [.init(pathPrefix: "/echo/json",
                                   requestTypes: [try! MediaType(parsing: "application/json")])]
            }) { gateway in
                let yaml = "name: Ada\nlanguages: [en, fr]\n"
                let answer = try await fetch("http://\(gateway.main)/echo/json/users", method: .POST,
                                             headers: [("Content-Type", "application/yaml"),
                                                       ("Accept", "application/json")],
                                             body: Array(yaml.utf8))
                #expect(answer.status == 200)
                let echo = try echoed(answer)
                #expect(field(echo, "content-type") == ["application/json; charset=utf-8"])
                let sent = try Registry.linked.decode(Array((echo["body"]?.stringValue ?? "").utf8),
                                                      contentType: MediaType(parsing: "application/json"))
                #expect(sent == .object(["name": "Ada", "languages": ["en", "fr"]]))

                // Already JSON: untouched, byte for byte.
                let json = #"{"b":1,  "a":2}"#
                let same = try await fetch("http://\(gateway.main)/echo/json/users", method: .POST,
                                           headers: [("Content-Type", "application/json")], body: Array(json.utf8))
                #expect(try echoed(same)["body"] == .string(json))

                // A type no format decodes: 415, with the types the route takes.
                let png = try await fetch("http://\(gateway.main)/echo/json/users", method: .POST,
                                          headers: [("Content-Type", "image/png"), ("Accept", "application/json")],
                                          body: [0x89, 0x50])
                #expect(png.status == 415)
                #expect(png.text.contains("application/json"))

                // Outside the route, bodies go through as they are.
                let other = try await fetch("http://\(gateway.main)/echo/other", method: .POST,
                                            headers: [("Content-Type", "application/yaml")], body: Array(yaml.utf8))
                #expect(try echoed(other)["body"] == .string(yaml))
            }
        }
    }

    @Test func anUnreachableUpstreamIs502AndASilentOneIs504() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: URL(string: "http://127.0.0.1:1")!, configure: {
                $0.routes = [.init(pathPrefix: "/stall", upstream: upstream, upstreamTimeout: .milliseconds(300))]
            }) { gateway in
                let refused = try await fetch("http://\(gateway.main)/anything",
                                              headers: [("Accept", "application/json")])
                #expect(refused.status == 502)
                #expect(refused.header("Content-Type")?.hasPrefix("application/problem+json") == true)
                #expect(refused.text.contains("could not be reached"))

                let started = ContinuousClock.now
                let silent = try await fetch("http://\(gateway.main)/stall/2",
                                             headers: [("Accept", "application/yaml")])
                #expect(silent.status == 504)
                #expect(ContinuousClock.now - started < .seconds(3))
                // Problems are negotiated too.
                #expect(silent.header("Content-Type") == "application/yaml; charset=utf-8")
                #expect(silent.text.contains("no response head within"))
            }
        }
    }

    @Test func aBodyOverTheTranscodingLimitIs502NamingItButStreamsThroughWhenAccepted() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { $0.maxTranscodeBytes = 10_000 }) { gateway in
                let over = try await fetch("http://\(gateway.main)/large/2000",
                                           headers: [("Accept", "application/yaml")])
                #expect(over.status == 502)
                #expect(over.text.contains("10000 bytes"))
                #expect(over.text.contains("max_transcode_bytes"))
                let through = try await fetch("http://\(gateway.main)/large/2000",
                                              headers: [("Accept", "application/json")])
                #expect(through.status == 200)
                #expect(through.body.count > 10_000)
                let under = try await fetch("http://\(gateway.main)/large/20",
                                            headers: [("Accept", "application/yaml")])
                #expect(under.status == 200)
            }
        }
    }

    @Test func headerFieldsOver16KiBAre431() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let big = String(repeating: "c", count: 20 * 1024)
                let answer = try await fetch("http://\(gateway.main)/value", headers: [("Cookie", big)])
                #expect(answer.status == 431)
                let fine = try await fetch("http://\(gateway.main)/value",
                                           headers: [("Cookie", String(big.prefix(8 * 1024)))])
                #expect(fine.status == 200)
            }
        }
    }

    /// 200 MB through the gateway, read chunk by chunk: every byte arrives, in order, and neither
    /// side buffers the body (this process holds both, and its resident memory stays flat).
    @Test func aLargeBodyStreamsThroughWithFlatMemory() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let size = 200 * 1024 * 1024
                let before = residentBytes()
                // TestUpstream's /bytes repeats one 64 KiB pattern; each piece is compared with it by memcmp.
                let pattern = (0..<(2 * 65_536)).map { UInt8(truncatingIfNeeded: ($0 % 65_536) &* 31 &+ 7) }
                var count = 0
                var mismatches = 0
                var peak = before
                let answer = try await fetch("http://\(gateway.main)/bytes/\(size)", timeout: .seconds(120)) { buffer in
                    var offset = 0
                    while offset < buffer.readableBytes {
                        let start = (count + offset) % 65_536
                        let length = min(buffer.readableBytes - offset, 65_536)
                        let same = buffer.withUnsafeReadableBytes { bytes in
                            pattern.withUnsafeBytes {
                                memcmp(bytes.baseAddress! + offset, $0.baseAddress! + start, length) == 0
                            }
                        }
                        if !same { mismatches += 1 }
                        offset += length
                    }
                    count += buffer.readableBytes
                    if count % (16 * 1024 * 1024) < buffer.readableBytes { peak = max(peak, residentBytes()) }
                }
                #expect(answer.status == 200)
                #expect(count == size)
                #expect(mismatches == 0)
                #expect(peak - before < 96 * 1024 * 1024, "resident memory grew by \((peak - before) >> 20) MiB")
            }
        }
    }
}

/// This process's resident memory (`VmRSS`).
func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kilobytes * 1024
}
