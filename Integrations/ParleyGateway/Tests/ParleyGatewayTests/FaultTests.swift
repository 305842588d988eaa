import Foundation
import NIOCore
import NIOPosix
import Parley
import ParleyHTTP
import ParleyCompression
import ParleyGateway
import Testing

/// Faults at both ends of the gateway, each repeated ``FaultLoop/repetitions`` times: the status
/// the client gets (or a closed connection, where no answer is possible any more), the problem's
/// detail, that the gateway still serves a normal request afterwards, and that the sockets on the
/// gateway's and the upstream's ports and the process's resident memory come back (``FaultLoop``).
///
/// Upstream faults are played by ``ScriptedUpstream`` (raw bytes on a socket); client faults are
/// sent with ``RawConnection``. Serialized: each test measures the process's memory.
///
/// The fault table (sockets, descriptors, memory per fault), and a longer run:
/// `PARLEY_FAULT_TABLE=1 PARLEY_FAULT_REPETITIONS=100 swift test --filter FaultTests ...`
@Suite(.serialized, .timeLimit(.minutes(1)))
struct FaultTests {
    // MARK: Upstream faults

    @Test func anUpstreamThatRefusesConnectionsIs502() async throws {
        let refusing = try await Self.closedPort()
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url, configure: { configuration in
                configuration.routes = [.init(pathPrefix: "/refused",
                                              upstream: URL(string: "http://127.0.0.1:\(refusing)")!)]
            }) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url).run("upstream refuses") {
                    let answer = try await fetch("http://\(gateway.main)/refused")
                    #expect(answer.status == 502)
                    #expect(problemDetail(answer)?.hasPrefix("the upstream could not be reached") == true,
                            "\(answer.text)")
                }
            }
        }
    }

    @Test(arguments: ["/close-before-head", "/reset-before-head"])
    func anUpstreamThatHangsUpBeforeTheHeadIs502(path: String) async throws {
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url).run("upstream \(path)") {
                    let answer = try await fetch("http://\(gateway.main)\(path)")
                    #expect(answer.status == 502)
                    #expect(problemDetail(answer)?.hasPrefix("the upstream could not be reached") == true,
                            "\(answer.text)")
                }
            }
        }
    }

    @Test func anUpstreamThatStallsBeforeTheHeadIs504InTime() async throws {
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url,
                                  configure: { $0.upstreamTimeout = .milliseconds(500) }) { gateway in
                // All at once: a stalled upstream holds no one else up.
                try await FaultLoop(gateway: gateway, upstream: upstream.url, concurrency: FaultLoop.repetitions)
                    .run("upstream stalls") {
                        let started = ContinuousClock.now
                        let answer = try await fetch("http://\(gateway.main)/stall")
                        let waited = ContinuousClock.now - started
                        #expect(answer.status == 504)
                        #expect(problemDetail(answer) == "the upstream sent no response head within 0.5 seconds",
                                "\(answer.text)")
                        #expect(waited >= .milliseconds(450) && waited < .seconds(3), "answered after \(waited)")
                    }
            }
        }
    }

    @Test func anUpstreamThatStallsMidBodyIsCutOffInTime() async throws {
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url,
                                  configure: { $0.upstreamTimeout = .milliseconds(500) }) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url, concurrency: FaultLoop.repetitions)
                    .run("upstream stalls mid-body") {
                        let started = ContinuousClock.now
                        let answer = try await fetch("http://\(gateway.main)/stall-mid-body",
                                                     headers: [("Accept", "application/yaml")])
                        #expect(answer.status == 504)
                        #expect(problemDetail(answer)
                                == "the upstream's body stalled for longer than the upstream timeout", "\(answer.text)")
                        #expect(ContinuousClock.now - started < .seconds(3))
                        // Streamed through: the client's connection ends, the body short.
                        let cut = try await Self.rawGet("/stall-mid-body", accept: "application/json", gateway: gateway)
                        #expect(cut.closed)
                        #expect(cut.response?.status == 200)
                        #expect(RawResponse.parse(cut.received).isEmpty, "a whole response arrived")
                    }
            }
        }
    }

    /// Heads NIO's HTTP/1.1 parser (llhttp) refuses.
    static let malformedHeads = [
        // A field without a colon.
        "HTTP/1.1 200 OK\r\nContent-Type application/json\r\nContent-Length: 2\r\n\r\n{}",
        // A status that is not a number.
        "HTTP/1.1 2x0 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
        // Two lengths.
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
        "SMTP ready\r\n\r\n",
    ]

    @Test(arguments: malformedHeads.indices)
    func anUpstreamThatSendsAMalformedHeadIs502(index: Int) async throws {
        let scripts = Self.scripts.merging(["/malformed": [.send(Self.malformedHeads[index]), .close]]) { $1 }
        try await ScriptedUpstream.with(scripts) { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url).run("malformed head \(index)") {
                    let answer = try await fetch("http://\(gateway.main)/malformed")
                    #expect(answer.status == 502, "\(Self.malformedHeads[index].debugDescription): \(answer.text)")
                    #expect(problemDetail(answer)?.hasPrefix("the upstream") == true, "\(answer.text)")
                }
            }
        }
    }

    /// An upstream whose body breaks off after the head: reset, or chunked framing that turns to garbage.
    @Test(arguments: ["/reset-mid-body", "/bad-chunk"])
    func anUpstreamThatBreaksOffMidBody(path: String) async throws {
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url).run("upstream \(path)") {
                    // To transcode, the gateway reads the whole body: it knows it failed and says so.
                    let answer = try await fetch("http://\(gateway.main)\(path)",
                                                 headers: [("Accept", "application/yaml")])
                    #expect(answer.status == 502)
                    #expect(problemDetail(answer)?.hasPrefix("the upstream") == true, "\(answer.text)")
                    // Streamed through, the head is already out: the client's connection ends with the body short.
                    let cut = try await Self.rawGet(path, accept: "application/json", gateway: gateway)
                    #expect(cut.closed)
                    #expect(cut.response?.status == 200)
                    #expect(RawResponse.parse(cut.received).isEmpty, "a whole response arrived")
                }
            }
        }
    }

    @Test func anUpstreamWhoseBodyIsShorterThanItsContentLength() async throws {
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url)
                    .run("Content-Length too large, then close") {
                        let answer = try await fetch("http://\(gateway.main)/length-too-large",
                                                     headers: [("Accept", "application/yaml")])
                        #expect(answer.status == 502)
                        #expect(problemDetail(answer)?.hasPrefix("the upstream") == true, "\(answer.text)")
                        let cut = try await Self.rawGet("/length-too-large", accept: "application/json",
                                                        gateway: gateway)
                        #expect(cut.closed)
                        #expect(cut.response?.status == 200)
                        #expect(cut.response?.field("Content-Length") == "1000")
                        #expect(cut.response?.body == Array(#"{"a":1}"#.utf8))
                    }
            }
        }
    }

    @Test func anUpstreamWhoseBodyIsLongerThanItsContentLength() async throws {
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url)
                    .run("Content-Length too small, kept alive") {
                        // The length frames the answer: the client gets what it says, the rest is not an
                        // answer to anyone.
                        let passed = try await fetch("http://\(gateway.main)/length-too-small",
                                                     headers: [("Accept", "application/json")])
                        #expect(passed.status == 200)
                        #expect(passed.text == #"{"a":"#)
                        let transcoded = try await fetch("http://\(gateway.main)/length-too-small",
                                                         headers: [("Accept", "application/yaml")])
                        #expect(transcoded.status == 502)
                        #expect(problemDetail(transcoded)?
                                    .hasPrefix("the upstream's application/json body cannot be transcoded") == true,
                                "\(transcoded.text)")
                    }
            }
        }
    }

    @Test func aGzipBombIs502NamingTheLimitInBoundedMemory() async throws {
        let bomb = Self.gzipBomb
        let scripts = Self.scripts.merging(["/bomb": [
            .send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
                  + "Content-Length: \(bomb.count)\r\n\r\n"),
            .send(bomb), .nextRequest,
        ]]) { $1 }
        try await ScriptedUpstream.with(scripts) { upstream in
            // A limit of 4 MiB: with the default 16 MiB the allocator keeps about 60 MB after the
            // first rounds (as much after 100 as after 20), too close to the loop's bound.
            let limit = 4 << 20
            try await withGateway(upstream: upstream.url, configure: { $0.maxTranscodeBytes = limit }) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url).run("gzip bomb (1 GiB)") {
                    let started = ContinuousClock.now
                    let answer = try await fetch("http://\(gateway.main)/bomb",
                                                 headers: [("Accept", "application/yaml")])
                    #expect(answer.status == 502)
                    #expect(problemDetail(answer)?.hasSuffix("exceeds the limit of \(limit) bytes") == true,
                            "\(answer.text)")
                    #expect(ContinuousClock.now - started < .seconds(5))
                    // A client that takes gzip JSON gets the bomb as it came, not inflated.
                    let passed = try await fetch("http://\(gateway.main)/bomb",
                                                 headers: [("Accept", "application/json")])
                    #expect(passed.status == 200)
                    #expect(passed.header("Content-Encoding") == "gzip")
                    #expect(passed.body.count == bomb.count)
                }
            }
        }
    }

    // MARK: Client faults

    @Test func aClientThatSendsItsHeadTooSlowlyIsCutOffAfterTheHeaderTimeout() async throws {
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url,
                                  configure: { $0.headerTimeout = .milliseconds(500) }) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url, concurrency: FaultLoop.repetitions)
                    .run("slowloris") {
                        // Started before connecting: the gateway's timer starts when it accepts.
                        let started = ContinuousClock.now
                        let connection = try await RawConnection.open(port: gateway.main.port)
                        // A byte every 50 ms, never the blank line; for at most 3 s.
                        let head = Array("GET /ok HTTP/1.1\r\nHost: gateway\r\nX-Slow: ".utf8)
                            + Array(repeating: UInt8(ascii: "a"), count: 100)
                        for byte in head where !connection.isClosed && ContinuousClock.now - started < .seconds(3) {
                            do { try await connection.send([byte]) } catch { break }
                            try await Task.sleep(for: .milliseconds(50))
                        }
                        await Self.expectTimedOut(connection, started: started, waiting: .seconds(1),
                                                  detail: "no complete request head within 0.5 s")
                    }
            }
        }
    }

    @Test func aRequestBodyThatStallsIsCutOffAfterTheBodyTimeoutAndASteadyOneIsServed() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { $0.bodyTimeout = .milliseconds(500) }) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream, concurrency: FaultLoop.repetitions,
                                    healthyPath: "/value")
                    .run("request body stalls") {
                        // Started before connecting: the gateway's timer starts when it accepts.
                        let started = ContinuousClock.now
                        let connection = try await RawConnection.open(port: gateway.main.port)
                        try await connection.send("POST /echo/upload HTTP/1.1\r\nHost: gateway\r\n"
                                                  + "Content-Type: text/plain\r\nContent-Length: 100\r\n\r\n0123456789")
                        await Self.expectTimedOut(connection, started: started, waiting: .seconds(3),
                                                  detail: "the request body sent nothing for 0.5 s")
                    }
                // 100 bytes, 10 every 150 ms: three times the timeout in all, never silent for it.
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send("POST /echo/upload HTTP/1.1\r\nHost: gateway\r\nContent-Type: text/plain\r\n"
                                          + "Accept: application/json\r\nContent-Length: 100\r\n\r\n")
                for chunk in 0..<10 {
                    try await Task.sleep(for: .milliseconds(150))
                    try await connection.send(String(repeating: String(chunk), count: 10))
                }
                let answer = await connection.responses(1, within: .seconds(5)).first
                await connection.close()
                #expect(answer?.status == 200)
                let echoed = try answer.map {
                    try Registry.linked.decode($0.body, contentType: MediaType(parsing: "application/json"))
                }
                #expect(echoed?["body"] == .string((0..<10).map { String(repeating: String($0), count: 10) }.joined()))
            }
        }
    }

    /// Waits for the gateway to close `connection` and checks that it did so about 0.5 s (the
    /// tests' timeout) after `started`, with a 408 problem saying `detail` and `Connection: close`.
    private static func expectTimedOut(_ connection: RawConnection, started: ContinuousClock.Instant,
                                       waiting limit: Duration, detail: String) async {
        let closed = await connection.waitForClose(within: limit)
        let lasted = ContinuousClock.now - started
        let answer = RawResponse.parse(connection.received).first
        await connection.close()
        #expect(closed)
        #expect(lasted >= .milliseconds(450) && lasted < .seconds(2), "cut off after \(lasted)")
        #expect(answer?.status == 408)
        #expect(answer?.field("Connection") == "close")
        #expect(answer.flatMap { problemDetail($0.body, contentType: $0.field("Content-Type")) } == detail)
    }

    /// Heads the gateway refuses with 431: over 16 KiB of field names and values, one field over
    /// 16 KiB, more than 1000 fields. One place decides, the HTTP decoder's limits, and the channel
    /// handler answers and closes the connection.
    static let oversizeHeads: [(fields: String, detail: String, closes: Bool)] = [
        ((0..<20).map { "X-Pad-\($0): " + String(repeating: "a", count: 1024) + "\r\n" }.joined(),
         "the request's header fields are over the gateway's limit", true),
        ("X-Large: " + String(repeating: "b", count: 20 * 1024) + "\r\n",
         "the request's header fields are over the gateway's limit", true),
        (String(repeating: "A: b\r\n", count: 1001), "the request's header fields are over the gateway's limit", true),
    ]

    /// Just under the limit, 16,368 bytes of names and values (16,432 on the wire, with `: ` and
    /// CRLF), is served.
    @Test func headerFieldsJustUnder16KiBAreServed() async throws {
        let fields = (10..<26).map { "X-Pad-\($0): " + String(repeating: "c", count: 1015) + "\r\n" }.joined()
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                let connection = try await RawConnection.open(port: gateway.main.port)
                try await connection.send("GET /ok HTTP/1.1\r\nHost: gateway\r\n" + fields + "\r\n")
                let answer = await connection.responses(1, within: .seconds(3)).first
                await connection.close()
                #expect(answer?.status == 200)
            }
        }
    }

    @Test(arguments: oversizeHeads.indices)
    func headerFieldsOver16KiBAre431(index: Int) async throws {
        let (fields, detail, closes) = Self.oversizeHeads[index]
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url).run("oversize head \(index)") {
                    let connection = try await RawConnection.open(port: gateway.main.port)
                    try await connection.send("GET /ok HTTP/1.1\r\nHost: gateway\r\n" + fields + "\r\n")
                    let answer = await connection.responses(1, within: .seconds(3)).first
                    let closed = await connection.waitForClose(within: closes ? .seconds(3) : .milliseconds(100))
                    await connection.close()
                    #expect(answer?.status == 431,
                            "\(String(decoding: connection.received.prefix(200), as: UTF8.self))")
                    #expect(answer?.field("Content-Type")?.hasPrefix("application/problem+json") == true)
                    #expect(answer.flatMap { problemDetail($0.body, contentType: $0.field("Content-Type")) } == detail)
                    #expect(closed == closes)
                    try await Self.expectServes(gateway)
                }
            }
        }
    }

    static let malformedRequestLines = [
        "GET /ok HTTP/1.1 extra\r\n",
        "G@T /ok HTTP/1.1\r\n",
        "GET /o k HTTP/1.1\r\n",
        "\u{1}\u{2}\u{3}\r\n",
    ]

    @Test(arguments: malformedRequestLines.indices)
    func aMalformedRequestLineIs400(index: Int) async throws {
        try await ScriptedUpstream.with(Self.scripts) { upstream in
            try await withGateway(upstream: upstream.url) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream.url)
                    .run("malformed request line \(index)") {
                        let connection = try await RawConnection.open(port: gateway.main.port)
                        try await connection.send(Self.malformedRequestLines[index] + "Host: gateway\r\n\r\n")
                        let answer = await connection.responses(1, within: .seconds(3)).first
                        let closed = await connection.waitForClose(within: .seconds(3))
                        await connection.close()
                        #expect(answer?.status == 400, "\(Self.malformedRequestLines[index].debugDescription)")
                        #expect(closed)
                        try await Self.expectServes(gateway)
                    }
            }
        }
    }

    @Test func pipelinedRequestsAreAllAnsweredInOrder() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream, healthyPath: "/value")
                    .run("pipelined requests") {
                        let paths = ["/echo/first", "/echo/second", "/echo/third"]
                        // Each names a host of its own: the proxy fields added upstream are each one's.
                        let hosts = ["gateway-1", "gateway-2", "gateway-3"]
                        let connection = try await RawConnection.open(port: gateway.main.port)
                        try await connection.send(zip(paths, hosts).map {
                            "GET \($0) HTTP/1.1\r\nHost: \($1)\r\nAccept: application/json\r\n\r\n"
                        }.joined())
                        let answers = await connection.responses(paths.count, within: .seconds(5))
                        await connection.close()
                        #expect(answers.map(\.status) == [200, 200, 200])
                        let echoed = try answers.map {
                            try Registry.linked.decode($0.body, contentType: MediaType(parsing: "application/json"))
                        }
                        #expect(echoed.map { $0["path"] } == paths.map { Value.string($0) })
                        #expect(echoed.map { $0["fields"]?["x-forwarded-host"] } == hosts.map { [.string($0)] })
                        #expect(echoed.map { $0["fields"]?["forwarded"] }
                                == hosts.map { [.string(#"for=127.0.0.1;host="\#($0)";proto=http"#)] })
                    }
            }
        }
    }

    @Test(arguments: [false, true])
    func aClientThatDisconnectsMidUploadCostsNothing(reset: Bool) async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                try await FaultLoop(gateway: gateway, upstream: upstream, healthyPath: "/value")
                    .run("client \(reset ? "resets" : "closes") mid-upload") {
                        let connection = try await RawConnection.open(port: gateway.main.port)
                        try await connection.send("POST /echo/upload HTTP/1.1\r\nHost: gateway\r\n"
                                                  + "Content-Type: application/octet-stream\r\n"
                                                  + "Content-Length: 10000000\r\n\r\n")
                        try await connection.send(Array(repeating: UInt8(ascii: "x"), count: 100_000))
                        try await Task.sleep(for: .milliseconds(20))   // the upload is under way upstream
                        await connection.close(reset: reset)
                        try await Self.expectServes(gateway, path: "/value")
                    }
            }
        }
    }

    // MARK: Scripts and helpers

    /// The upstream faults, by path; `/ok` is the healthy answer.
    static let scripts: [String: [ScriptStep]] = [
        "/ok": ScriptedUpstream.healthy,
        "/close-before-head": [.close],
        "/reset-before-head": [.reset],
        "/stall": [.hold],
        "/stall-mid-body": [
            .send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[1,"), .hold,
        ],
        "/reset-mid-body": [
            .send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n["
                  + String(repeating: " ", count: 5000)),
            .pause(.milliseconds(20)), .reset,
        ],
        "/bad-chunk": [
            .send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                  + "5\r\n[1,2,\r\n"),
            .pause(.milliseconds(20)), .send("zz\r\nnot a chunk\r\n"), .close,
        ],
        "/length-too-large": [
            .send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"a\":1}"), .close,
        ],
        "/length-too-small": [
            .send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{\"a\":1}"),
            .nextRequest,
        ],
    ]

    /// `[` + 1 GiB of spaces + `]` as gzip: 1024 members of 1 MiB each (RFC 1952 §2.2 allows a
    /// series; the decoder reads them all), about 1 MB on the wire.
    static let gzipBomb: [UInt8] = {
        let compressor = Compressor(level: 9)
        let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20)
        let first = compressor.compress([UInt8(ascii: "[")] + spaces.dropFirst(), coding: .gzip)
        let middle = compressor.compress(spaces, coding: .gzip)
        let last = compressor.compress(spaces.dropLast() + [UInt8(ascii: "]")], coding: .gzip)
        return first + Array(repeatElement(middle, count: 1022).joined()) + last
    }()

    /// A port nothing listens on: one the system chose, closed again.
    static func closedPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    /// A GET on a raw connection: the first response (possibly cut short), everything received,
    /// and whether the gateway closed the connection within 3 s.
    static func rawGet(
        _ path: String, accept: String, gateway: Gateway.Addresses
    ) async throws -> (response: RawResponse?, received: [UInt8], closed: Bool) {
        let connection = try await RawConnection.open(port: gateway.main.port)
        try await connection.send("GET \(path) HTTP/1.1\r\nHost: gateway\r\nAccept: \(accept)\r\n\r\n")
        // Cut at the 0.5 s upstream timeout; the wait has room for a sanitizer build under load.
        let closed = await connection.waitForClose(within: .seconds(10))
        await connection.close()
        return (RawResponse.parse(connection.received, partial: true).first, connection.received, closed)
    }

    /// A normal request through the gateway is answered normally.
    static func expectServes(_ gateway: Gateway.Addresses, path: String = "/ok") async throws {
        let answer = try await fetch("http://\(gateway.main)\(path)", timeout: .seconds(5))
        #expect(answer.status == 200, "after the fault, \(path): \(answer.text)")
    }
}

/// Repeats a fault (each request on a connection of its own), then checks that the gateway still serves
/// and that its sockets and the process's memory came back to where they were after one warm-up
/// round (which fills pools, caches and the allocator's arenas).
struct FaultLoop {
    /// How often each fault is repeated: a socket or a buffer kept per fault shows. 20, or
    /// `PARLEY_FAULT_REPETITIONS` (a longer run on demand).
    static let repetitions = ProcessInfo.processInfo.environment["PARLEY_FAULT_REPETITIONS"].flatMap { Int($0) } ?? 20
    /// Sockets that may stay open after the loop: the gateway's idle keep-alive connections to
    /// the upstream (both ends are in this process). One is usual; the check waits up to 3 s
    /// for more to close.
    static let socketSlack = 4
    static let usualSockets = 2
    /// The most resident memory a loop may add.
    static let memorySlack = 64 << 20

    var gateway: Gateway.Addresses
    var upstream: URL
    var concurrency = 1
    var healthyPath = "/ok"

    func run(_ name: String, _ fault: @escaping @Sendable () async throws -> Void) async throws {
        let ports: Set<Int> = [gateway.main.port, upstream.port ?? 0]
        let started = ContinuousClock.now
        try await fault()
        let before = ProcessResources.measure()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<Self.repetitions {
                if index >= concurrency { try await group.next() }
                group.addTask { try await fault() }
            }
            try await group.waitForAll()
        }
        try await FaultTests.expectServes(gateway, path: healthyPath)
        let elapsed = ContinuousClock.now - started
        let after = await before.settled(ports: ports, newSockets: Self.usualSockets, within: .seconds(3))
        let kept = after.newSockets(since: before, ports: ports)
        #expect(kept <= Self.socketSlack, """
            \(name): \(kept) sockets opened since the warm-up are still held \
            (on the gateway's or upstream's ports, or closed and not released)
            """)
        #expect(after.residentBytes - before.residentBytes < Self.memorySlack,
                "\(name): resident memory \(before.residentBytes >> 20) -> \(after.residentBytes >> 20) MiB")
        if ProcessInfo.processInfo.environment["PARLEY_FAULT_TABLE"] != nil {
            print("fault-table | \(name) | \(Self.repetitions + 1)x in \(elapsed) | sockets kept \(kept)"
                  + " | descriptors \(before.descriptors) -> \(after.descriptors)"
                  + " | RSS \(before.residentBytes >> 20) -> \(after.residentBytes >> 20) MiB,"
                  + " peak \(after.peakResidentBytes >> 20) MiB")
        }
    }
}

/// This process's open descriptors and the sockets among them, as `/proc` shows them, and its
/// resident memory now and at its peak.
struct ProcessResources {
    var descriptors: Int
    /// The inodes of the open sockets.
    var sockets: Set<String>
    var residentBytes: Int
    var peakResidentBytes: Int

    static func measure() -> ProcessResources {
        let links = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [])
            .compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
        let sockets = links.filter { $0.hasPrefix("socket:[") }.map { String($0.dropFirst(8).dropLast()) }
        return ProcessResources(descriptors: links.count, sockets: Set(sockets),
                                residentBytes: statusKilobytes("VmRSS") * 1024,
                                peakResidentBytes: statusKilobytes("VmHWM") * 1024)
    }

    /// How many of the sockets open now were not open at `earlier` and are TCP connections or
    /// listeners on `ports`, or in no table of `/proc/net` at all (closed, reset, but not
    /// released). Sockets other tests open meanwhile on other ports do not count.
    func newSockets(since earlier: ProcessResources, ports: Set<Int>) -> Int {
        let (onPorts, listed) = Self.socketInodes(onPorts: ports)
        return sockets.subtracting(earlier.sockets).filter { onPorts.contains($0) || !listed.contains($0) }.count
    }

    /// Measures until at most `count` new sockets (``newSockets(since:ports:)``) remain, or `limit` passes.
    func settled(ports: Set<Int>, newSockets count: Int, within limit: Duration) async -> ProcessResources {
        let deadline = ContinuousClock.now + limit
        while true {
            let now = Self.measure()
            if now.newSockets(since: self, ports: ports) <= count || ContinuousClock.now >= deadline { return now }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The inodes of TCP sockets (any state) whose local or remote port is one of `ports`, and
    /// the inodes of every socket the system lists.
    private static func socketInodes(onPorts ports: Set<Int>) -> (onPorts: Set<String>, listed: Set<String>) {
        var onPorts: Set<String> = []
        var listed: Set<String> = []
        for table in ["tcp", "tcp6", "udp", "udp6", "raw", "raw6", "unix", "netlink", "packet"] {
            guard let text = try? String(contentsOfFile: "/proc/net/" + table, encoding: .utf8) else { continue }
            // The inode column: the 7th for unix, the 9th for packet, the 10th for the others.
            let index = table == "unix" ? 6 : table == "packet" ? 8 : 9
            for line in text.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ")
                guard columns.count > index else { continue }
                listed.insert(String(columns[index]))
                guard table.hasPrefix("tcp") else { continue }
                let endpoints = [columns[1], columns[2]].compactMap {
                    $0.split(separator: ":").last.flatMap { Int($0, radix: 16) }
                }
                if endpoints.contains(where: ports.contains) { onPorts.insert(String(columns[index])) }
            }
        }
        return (onPorts, listed)
    }

    /// A `kB` line of `/proc/self/status`, or 0.
    private static func statusKilobytes(_ key: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return kilobytes
    }
}

/// The `detail` of a problem document (RFC 9457) in whatever registered type it came in.
func problemDetail(_ body: [UInt8], contentType: String?) -> String? {
    guard let contentType, let type = try? MediaType(parsing: contentType),
          let value = try? Registry.linked.decode(body, contentType: type) else { return nil }
    return ProblemDetails(value: value)?.detail
}

func problemDetail(_ answer: Answer) -> String? {
    problemDetail(answer.body, contentType: answer.header("Content-Type"))
}
