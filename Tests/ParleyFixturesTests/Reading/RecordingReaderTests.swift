import Foundation
import Parley
import ParleyJSON
import ParleyHTTP
import Testing
import ParleyFixtures

@Suite("Reading recordings")
struct RecordingReaderTests {
    @Test("HAR: entries, statuses, headers, text and base64 bodies")
    func har() throws {
        let recording = try read("recorded/api-session.har")
        #expect(recording.kind == .har)
        #expect(recording.exchanges.map(\.response.status)
                == [200, 200, 403, 404, 200, 200, 200, 204, 301, 304, 200, 200])
        let first = recording.exchanges[0]
        #expect(first.request.method == "GET")
        #expect(first.request.url == "https://api.example.org/users/4213")
        #expect(first.response.headers["content-type"] == "application/json; charset=utf-8")
        #expect(try JSONFormat().decode(first.response.body ?? []) == sampleUser)
        // Entry 1 is stored base64 and still gzip-coded.
        let coded = try #require(recording.exchanges[1].response.body)
        #expect(coded.starts(with: [0x1F, 0x8B]))
        #expect(recording.exchanges[4].response.body?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        #expect(recording.exchanges[7].response.body == [])
    }

    @Test("Ruby vcr YAML: methods upper-cased, psych !binary bodies as bytes")
    func rubyVCRYAML() throws {
        let recording = try read("recorded/ruby-vcr-feeds.yml")
        #expect(recording.kind == .rubyVCRYAML)
        #expect(recording.exchanges.count == 4)
        #expect(recording.exchanges[0].request.method == "GET")
        #expect(recording.exchanges[2].response.body
                == Array("Caf\u{E9} d\u{E9}j\u{E0} vu \u{2013} \u{201C}quoted\u{201D} \u{20AC}5\n"
            .unicodeScalars.map { scalar -> UInt8 in
                switch scalar {
                case "\u{2013}": 0x96
                case "\u{201C}": 0x93
                case "\u{201D}": 0x94
                case "\u{20AC}": 0x80
                default: UInt8(scalar.value)
                }
            }))
        #expect(recording.exchanges[3].response.body?.starts(with: Array("bplist00".utf8)) == true)
    }

    @Test("Ruby vcr JSON: base64_string bodies")
    func rubyVCRJSON() throws {
        let recording = try read("recorded/ruby-vcr-catalog.json")
        #expect(recording.kind == .rubyVCRJSON)
        #expect(recording.exchanges.count == 2)
        // こんにちは in Shift_JIS starts 82 B1 82 F1.
        #expect(recording.exchanges[1].response.body?.starts(with: [0x82, 0xB1, 0x82, 0xF1]) == true)
    }

    @Test("vcrpy, go-vcr v1 and v2 are told apart by content")
    func cassetteKinds() throws {
        #expect(try read("recorded/vcrpy-httpbin.yaml").kind == .vcrpy)
        let v1 = try read("recorded/go-vcr-v1.yaml")
        #expect(v1.kind == .goVCR1)
        #expect(v1.exchanges[0].response.status == 200)
        #expect(v1.exchanges[0].response.reason == "OK")
        #expect(v1.exchanges[0].response.body == Array("Hello, world\n".utf8))
        let v2 = try read("recorded/go-vcr-v2.yaml")
        #expect(v2.kind == .goVCR2)
        #expect(v2.exchanges.map(\.response.status) == [200, 404])
        #expect(v2.exchanges[0].response.httpVersion == "HTTP/1.1")
    }

    @Test("Raw HTTP: a redirect chain with a chunked final body")
    func rawRedirectChain() throws {
        let recording = try read("recorded/redirect-chain.http")
        #expect(recording.kind == .rawHTTP)
        #expect(recording.exchanges.map(\.response.status) == [302, 200])
        #expect(recording.exchanges[0].response.headers["Location"] == "/users/4213")
        #expect(try JSONFormat().decode(recording.exchanges[1].response.body ?? []) == sampleUser)
        #expect(recording.exchanges[1].response.readingNotes.isEmpty)
    }

    @Test("Raw HTTP: LF line ends, no reason phrase, header without a space, Content-Length mismatch")
    func rawQuirks() throws {
        let text = "HTTP/1.1 100 Continue\n\nHTTP/1.0 200\nContent-Type:text/plain\nContent-Length: 99\n\nhello\n" +
                   "world\n"
        let recording = try RecordingReader().read(bytes: Array(text.utf8), path: "quirks.txt")
        #expect(recording.exchanges.map(\.response.status) == [100, 200])
        let response = recording.exchanges[1].response
        #expect(response.reason == "")
        #expect(response.headers["content-type"] == "text/plain")
        #expect(response.body == Array("hello\nworld\n".utf8))  // a capture ends with its body
        #expect(response.readingNotes.map(\.kind) == [.lengthMismatch])
    }

    @Test("Raw HTTP: chunked header over an unframed body is noted, not fatal")
    func rawChunkedButNot() throws {
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\nplain body"
        let response = try RecordingReader().read(bytes: Array(text.utf8), path: "x").exchanges[0].response
        #expect(response.body == Array("plain body".utf8))
        #expect(response.readingNotes.map(\.kind) == [.chunkFraming])
    }

    @Test("Detection is by content: a HAR under any name, with a BOM")
    func detectionByContent() throws {
        let har = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture("recorded/api-session.har"))))
        let recording = try RecordingReader().read(bytes: [0xEF, 0xBB, 0xBF] + har, path: "export.txt")
        #expect(recording.kind == .har)
        #expect(recording.exchanges.count == 12)
    }

    @Test("Files that are no recording fail with an error naming the file", arguments: [
        ("notes.md", "# Notes\n\nNothing here.", RecordingError.Reason.notARecording),
        ("data.json", "{\"users\": []}", .notARecording),
        ("empty.har", "   \n", .notARecording),
        ("broken.har", "{\"log\": {", .malformed),
        ("status.http", "HTTP/1.1 abc\r\n\r\n", .malformed),
    ])
    func notRecordings(name: String, content: String, reason: RecordingError.Reason) {
        #expect {
            try RecordingReader().read(bytes: Array(content.utf8), path: name)
        } throws: { error in
            guard let error = error as? RecordingError else { return false }
            return error.reason == reason && error.path == name && error.description.hasPrefix(name + ": ")
        }
    }

    @Test("A file that cannot be read fails with the system's reason")
    func unreadableFiles() throws {
        let missing = "/nonexistent-parley-folder/a.har"
        #expect(throws: RecordingError(.unreadable, path: missing,
                                       "cannot read the file (No such file or directory)")) {
            try RecordingReader().read(path: missing)
        }
        let folder = FileManager.default.temporaryDirectory.path
        #expect(throws: RecordingError(.unreadable, path: folder, "cannot read the file (Is a directory)")) {
            try RecordingReader().read(path: folder)
        }
    }

    @Test("A legacy vcrpy cassette of pickled objects is refused, not misread")
    func legacyVCRPy() {
        let text = "- request: !!python/object:vcr.request.Request\n    method: GET\n  response:\n" +
                   "    status: {code: 200}\n"
        #expect(throws: RecordingError.self) { try RecordingReader().read(bytes: Array(text.utf8), path: "old.yaml") }
    }
}
