import Foundation
import HTTPTypes
import Parley
import ParleyFixtures
import ParleyHTTP
import Testing

/// Hostile recordings (issue #22): each reads to a clean result or a `RecordingError`, never a
/// trap, in time linear in its size. Inputs are generated here, not committed.
@Suite("Hostile recordings")
struct HostileRecordingTests {
    /// A raw HTTP response with `headers` and `body`.
    static func raw(_ headers: [String], body: String = "") -> [UInt8] {
        Array(("HTTP/1.1 200 OK\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n" + body).utf8)
    }

    @Test("A Content-Length that is no length is a framing error and the body read to the next message",
          arguments: ["-2", "-9223372036854775808", "+5", "9223372036854775808", "99999999999999999999", "5, 5",
                      "0x10"])
    func contentLengthThatIsNoLength(length: String) throws {
        let bytes = Self.raw(["Content-Type: text/plain", "Content-Length: \(length)"], body: "hello")
        let recording = try RecordingReader().read(bytes: bytes, path: "memory")
        let response = try #require(recording.exchanges.first?.response)
        #expect(response.body == Array("hello".utf8))
        #expect(response.readingNotes.map(\.kind) == [.invalidFraming])
        #expect(response.readingNotes.first?.severity == .error)
    }

    @Test("A Content-Length past the end of the whole file is a framing error, not an overflow",
          arguments: ["9223372036854775807", "9223372036854775800", "100000"])
    func contentLengthPastTheWholeFile(length: String) throws {
        let bytes = Self.raw(["Content-Type: text/plain", "Content-Length: \(length)"], body: "abc")
        let recording = try RecordingReader().read(bytes: bytes, path: "memory")
        let response = try #require(recording.exchanges.first?.response)
        #expect(response.body == Array("abc".utf8))
        #expect(response.readingNotes.map(\.kind) == [.invalidFraming])
        #expect(response.readingNotes.first?.message.contains("RFC 9112") == true)
    }

    @Test("A Content-Length a few bytes off (a hand-edited body) stays a mismatch warning",
          arguments: ["6", "40"])
    func contentLengthPastTheEnd(length: String) throws {
        let bytes = Self.raw(["Content-Type: text/plain", "Content-Length: \(length)"], body: "hello")
        let recording = try RecordingReader().read(bytes: bytes, path: "memory")
        let response = try #require(recording.exchanges.first?.response)
        #expect(response.body == Array("hello".utf8))
        #expect(response.readingNotes.map(\.kind) == [.lengthMismatch])
    }

    @Test("A negative Content-Length with no body reads no byte before the buffer")
    func negativeLengthWithoutBody() throws {
        let recording = try RecordingReader().read(bytes: Self.raw(["Content-Length: -2"]), path: "memory")
        #expect(recording.exchanges.first?.response.body == [])
    }

    @Test("A chunk size that is signed or no number is not chunk framing (a body stored decoded)",
          arguments: ["-1", "+3", " ", "cafe"])
    func bodiesThatAreNotChunked(size: String) throws {
        let bytes = Self.raw(["Transfer-Encoding: chunked"], body: "\(size)\r\nabc\r\n0\r\n\r\n")
        let recording = try RecordingReader().read(bytes: bytes, path: "memory")
        let response = try #require(recording.exchanges.first?.response)
        #expect(response.readingNotes.map(\.kind) == [.chunkFraming])
    }

    @Test("A chunk size that overflows or passes the whole file is a framing error",
          arguments: ["7FFFFFFFFFFFFFFF", "FFFFFFFFFFFFFFFF", "10000000000000000", "1000"])
    func hostileChunkSizes(size: String) throws {
        let bytes = Self.raw(["Transfer-Encoding: chunked"], body: "3\r\nabc\r\n\(size)\r\nabc\r\n0\r\n\r\n")
        let recording = try RecordingReader().read(bytes: bytes, path: "memory")
        let response = try #require(recording.exchanges.first?.response)
        #expect(response.readingNotes.map(\.kind) == [.invalidFraming])
        #expect(response.readingNotes.first?.severity == .error)
    }

    @Test("Chunked framing still reads when every size is sane")
    func saneChunks() throws {
        let bytes = Self.raw(["Transfer-Encoding: chunked"], body: "3\r\nabc\r\nA;x=y\r\n0123456789\r\n0\r\n\r\n")
        let recording = try RecordingReader().read(bytes: bytes, path: "memory")
        #expect(recording.exchanges.first?.response.body == Array("abc0123456789".utf8))
        #expect(recording.exchanges.first?.response.readingNotes == [])
    }

    @Test("Loose status lines: every message is read and the search for the next one is one pass")
    func looseStatusLinesScanOnce() throws {
        let message = "HTTP/1x 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok\r\n"
        let text = String(repeating: message, count: 4_000)
        let recording = try RecordingReader().read(bytes: Array(text.utf8), path: "memory")
        #expect(recording.exchanges.count == 4_000)
        #expect(recording.exchanges.allSatisfy { $0.response.body == Array("ok".utf8) })

        // The scan the reader uses: searches from each message's body together look at each
        // byte at most once (before, each looked at the rest of the file: 4,000 × 256 KB).
        let bytes = Array(text.utf8)
        let examined = bytes.withUnsafeBufferPointer { buffer in
            var scan = RawHTTPReader.StatusLineScan()
            var offset = 0
            while offset < buffer.count {
                _ = scan.nextStatusLine(in: buffer, from: offset)
                offset += message.utf8.count
            }
            return scan.positionsExamined
        }
        #expect(examined <= bytes.count)
    }

    @Test("Strict status lines after a body still split messages")
    func strictStatusLinesSplitMessages() throws {
        let text = "HTTP/1.1 200 OK\r\n\r\nfirst\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\nnone"
        let recording = try RecordingReader().read(bytes: Array(text.utf8), path: "memory")
        #expect(recording.exchanges.map(\.response.status) == [200, 404])
        // Without a Content-Length the body runs to the next status line (its line end included).
        #expect(recording.exchanges.map(\.response.body) == [Array("first\r\n".utf8), Array("none".utf8)])
    }

    @Test("A folder with hostile recordings is checked to the end, each file listed")
    func hostileFilesDoNotStopTheRun() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files: [(String, [UInt8])] = [
            ("a-negative.http", Self.raw(["Content-Length: -2"])),
            ("b-max.http",
             Self.raw(["Content-Type: text/plain", "Content-Length: 9223372036854775807"], body: "hello")),
            ("c-min.http",
             Self.raw(["Content-Type: text/plain", "Content-Length: -9223372036854775808"], body: "hello")),
            ("d-chunk.http",
             Self.raw(["Content-Type: text/plain", "Transfer-Encoding: chunked"],
                      body: "7FFFFFFFFFFFFFFF\r\nabc\r\n0\r\n\r\n")),
            ("e-broken.http", Array("HTTP/1.1 abc\r\n\r\n".utf8)),
        ]
        for (name, bytes) in files {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        let discovered = try FixtureFiles.discover([folder.path])
        var checks: [RecordingCheck] = []
        await FixtureChecker(options: CheckOptions(registry: testRegistry)).run(discovered) { checks.append($0) }
        #expect(checks.map { ($0.path as NSString).lastPathComponent } == files.map(\.0))
        #expect(checks.prefix(4).allSatisfy { $0.readError == nil && $0.exchanges.count == 1 })
        #expect(checks.last?.readError?.reason == .malformed)
    }

    @Test("Control characters from a recording are escaped in the text report and in errors")
    func controlCharactersAreEscaped() throws {
        let bytes = Self.raw(["Content-Type: application/json\u{1B}[2J\u{1B}]0;pwned\u{07}", "Content-Length: 3"],
                             body: "{x}")
        let recording = try RecordingReader().read(bytes: bytes, path: "memory\u{1B}[31m")
        let result = check(recording.exchanges[0], kind: recording.kind)
        var lines: [String] = []
        var reporter = ReportFormat.text.reporter(strict: false) { lines.append($0) }
        reporter.record(RecordingCheck(path: "memory\u{1B}[31m", kind: recording.kind, byteCount: bytes.count,
                                       exchanges: [result], readError: nil, isSkipped: false))
        reporter.record(RecordingCheck(path: "x", kind: nil, byteCount: 0, exchanges: [],
                                       readError: RecordingError(.malformed, path: "x",
                                                                 "header \"\u{1B}[2J\"\r\nPASSED"),
                                       isSkipped: false))
        let report = lines.joined(separator: "\n")
        #expect(!report.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\r" })
        #expect(report.contains("\\u{1B}[2J"))
        #expect(report.contains("\\u{0D}\\u{0A}PASSED"))
        let error = RecordingError(.malformed, path: "f\u{1B}", "bad \u{9B}2J \u{202E}txt")
        #expect(error.description == "f\\u{1B}: bad \\u{9B}2J \\u{202E}txt")
    }

    @Test("The escaping keeps ordinary text and a report's own line feeds")
    func escapingKeepsOrdinaryText() {
        #expect(TerminalText.escaped("Café → ✓ \"q\"") == "Café → ✓ \"q\"")
        #expect(TerminalText.escaped("a\tb\u{0}") == "a\\u{09}b\\u{00}")
        #expect(TerminalText.escapedKeepingLines("one\n  two\u{1B}") == "one\n  two\\u{1B}")
    }
}

/// Snapshot comparison of large values (issue #22 row 8).
@Suite("Snapshot comparison at scale")
struct SnapshotComparisonScaleTests {
    static func object(_ count: Int, changing changed: Int? = nil) -> Value {
        .object(Value.Object((0..<count).map { index in
            .init(key: "k\(index)", value: .string(index == changed ? "other" : "v\(index)"))
        }))
    }

    @Test("An object of 40,000 members equals itself and a copy with one change differs at that key")
    func largeObjects() {
        let expected = Self.object(40_000)
        #expect(SnapshotComparison.differences(expected: expected, actual: Self.object(40_000), match: .exact).isEmpty)
        let differences = SnapshotComparison.differences(expected: expected,
                                                         actual: Self.object(40_000, changing: 39_999),
                                                         match: .exact)
        #expect(differences == ["$.k39999: expected \"v39999\", got \"other\""])
    }

    @Test("Missing and unexpected members of large objects are found; subset ignores extra members")
    func largeObjectsMissingAndExtra() {
        var members = (0..<1_000).map { Value.Object.Member(key: "k\($0)", value: .integer(Int64($0))) }
        let expected = Value.object(Value.Object(members))
        members.removeFirst()
        members.append(.init(key: "extra", value: .null))
        let actual = Value.object(Value.Object(members))
        #expect(SnapshotComparison.differences(expected: expected, actual: actual, match: .exact)
                == ["$.k0: missing (expected 0)", "$.extra: unexpected null"])
        #expect(SnapshotComparison.differences(expected: actual, actual: expected, match: .subset)
                == ["$.extra: missing (expected null)"])
    }

    @Test("A repeated key is looked up as the object's subscript does: the last member wins")
    func repeatedKeysUseTheLastMember() {
        let members = (0..<40).map { Value.Object.Member(key: "k\($0)", value: .integer(1)) }
            + [.init(key: "k3", value: .integer(2))]
        let actual = Value.object(Value.Object(members))
        #expect(SnapshotComparison.differences(expected: ["k3": 2], actual: actual, match: .subset).isEmpty)
    }

    @Test("Differences name keys with control characters escaped")
    func differencePathsAreEscaped() {
        let entry = Snapshot.Entry(index: 0, match: .exact, value: ["a\u{1B}[2J": 1])
        #expect(entry.differences(from: ["a\u{1B}[2J": 2]) == ["$.a\\u{1B}[2J: expected 1, got 2"])
    }
}

/// More header fields than `HTTPFields` can hold (65,535) is refused, never a trap.
@Suite struct HeaderFieldCountLimitTests {
    static let recording: [UInt8] = HostileRecordingTests.raw(
        ["Content-Type: text/plain", "Content-Length: 2"] + (0..<70_000).map { "X-F\($0): v" }, body: "ok")

    @Test func aCheckReportsTheLimit() throws {
        let exchange = try #require(try RecordingReader().read(bytes: Self.recording, path: "memory").exchanges.first)
        let checker = ExchangeChecker(options: CheckOptions(registry: .builtIn))
        let result = checker.check(exchange, path: "memory", kind: .rawHTTP)
        #expect(result.findings.map(\.kind) == [.limitExceeded])
        #expect(result.findings.first?.message.contains("\(RecordedFields.maxCount)") == true)
    }

    @Test func aReplayRefusesIt() async throws {
        let recording = try RecordingReader().read(bytes: Self.recording, path: "memory")
        let transport = ReplayTransport(replayer: Replayer(recordings: [recording]))
        let request = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/")
        await #expect(throws: ReplayError.self) { _ = try await transport.send(request, body: nil) }
    }

    @Test func theHTTPResponseNeverTraps() throws {
        let exchange = try #require(try RecordingReader().read(bytes: Self.recording, path: "memory").exchanges.first)
        #expect(exchange.response.httpResponse.headerFields.count == RecordedFields.maxCount)
    }
}
