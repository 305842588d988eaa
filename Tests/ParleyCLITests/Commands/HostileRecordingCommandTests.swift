import Foundation
import Testing

/// `parley check` on hostile recordings (issue #22): the process never traps, every file is
/// listed with why, and control characters from recordings reach the terminal escaped.
@Suite struct HostileRecordingCommandTests {
    static func raw(_ headers: [String], body: String = "") -> Data {
        Data(("HTTP/1.1 200 OK\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n" + body).utf8)
    }

    @Test func aFolderOfHostileRecordingsIsCheckedToTheEnd() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files: [(String, Data)] = [
            ("a-negative.http", Self.raw(["Content-Length: -2"])),
            ("b-max.http",
             Self.raw(["Content-Type: text/plain", "Content-Length: 9223372036854775807"], body: "hello")),
            ("c-min.http",
             Self.raw(["Content-Type: text/plain", "Content-Length: -9223372036854775808"], body: "hello")),
            ("d-chunk.http", Self.raw(["Content-Type: text/plain", "Transfer-Encoding: chunked"],
                                      body: "7FFFFFFFFFFFFFFF\r\nabc\r\n0\r\n\r\n")),
            ("e-escapes.http",
             Self.raw(["Content-Type: text/plain\u{1B}]0;pwned\u{07}\u{1B}[2J", "Content-Length: 2"], body: "ok")),
            ("f-broken.http", Data("HTTP/1.1 abc\u{1B}[2J\r\n\r\n".utf8)),
        ]
        for (name, data) in files { try data.write(to: folder.appendingPathComponent(name)) }

        let result = try ParleyProcess.run(["check", folder.path])
        // One file cannot be read: exit 2, with every other file still checked and reported.
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("checked 5 recordings, 5 exchanges"), "\(result.stdout)")
        #expect(result.stdout.contains("1 unreadable file"))
        #expect(result.stdout.contains("FAIL  \(folder.path)/f-broken.http: byte 0: status line \"HTTP/1.1 " +
                                       "abc\\u{1B}[2J\""))
        #expect(result.stdout.contains("invalid-framing: Content-Length \"-2\" is not a length"))
        #expect(result.stdout.contains("[text/plain\\u{1B}]0;pwned\\u{07}\\u{1B}[2J]"))
        #expect(!result.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
    }

    /// RFC 9112 §6.3: a message whose length cannot be known is an error, so the check fails.
    @Test(arguments: [
        (["Content-Type: text/plain", "Content-Length: -2"], "hello", "Content-Length \"-2\" is not a length"),
        (["Content-Type: text/plain", "Content-Length: 9223372036854775807"], "abc", "more than twice the"),
        (["Content-Type: text/plain", "Transfer-Encoding: chunked"], "7FFFFFFFFFFFFFFF\r\nabc\r\n0\r\n\r\n",
         "chunk size \"7FFFFFFFFFFFFFFF\""),
    ])
    func framingErrorsFailTheCheck(headers: [String], body: String, reason: String) throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-framing-\(UUID().uuidString).http")
        try Self.raw(headers, body: body).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ParleyProcess.run(["check", file.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("invalid-framing"), "\(result.stdout)")
        #expect(result.stdout.contains(reason), "\(result.stdout)")
    }

    @Test func aHandEditedLengthStaysAWarning() throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-edited-\(UUID().uuidString).http")
        try Self.raw(["Content-Type: text/plain", "Content-Length: 7"], body: "hello").write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ParleyProcess.run(["check", file.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("length-mismatch"), "\(result.stdout)")
    }

    /// `HTTPFields` traps past 65,535 fields: a recording with more is refused, not a crash.
    @Test func aResponseWithTooManyHeaderFieldsIsAFinding() throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-fields-\(UUID().uuidString).http")
        let fields = ["Content-Type: text/plain", "Content-Length: 2"] + (0..<70_000).map { "X-F\($0): v" }
        try Self.raw(fields, body: "ok").write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ParleyProcess.run(["check", file.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("limit-exceeded: the response has 70002 header fields, more than the limit of " +
                                       "10000"),
                "\(result.stdout.prefix(2000))")
    }
}
