import Foundation
import Testing

/// The CBOR format linked into `parley`: listed, transcoded both ways, recognised by its content,
/// and read by `parley check` in recordings.
@Suite struct CBORCommandTests {
    /// `{"id": 7, "tags": ["a"], "big": 18446744073709551616}` as preferred CBOR.
    static let document: [UInt8] = [0xA3, 0x62, 0x69, 0x64, 0x07, 0x64, 0x74, 0x61, 0x67, 0x73, 0x81, 0x61, 0x61,
                                    0x63, 0x62, 0x69, 0x67, 0xC2, 0x49, 0x01, 0, 0, 0, 0, 0, 0, 0, 0]

    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-cbor-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func formatsListsCBOR() throws {
        let result = try ParleyProcess.run(["formats"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(
            "cbor\n  decodes: application/cbor, application/*+cbor, application/cbor-seq, application/*+cbor-seq"))
        #expect(result.stdout.contains("  encodes: application/cbor, application/cbor-seq"))
    }

    @Test func decodeTranscodesJSONToCBORAndBack() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("in.json")
        try Data(#"{"id": 7, "tags": ["a"], "big": 18446744073709551616}"#.utf8).write(to: json)
        let cbor = folder.appendingPathComponent("out.cbor")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "\"$0\" decode \"$1\" --to application/cbor > \"$2\"",
                           ParleyProcess.executable.path, json.path, cbor.path]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        #expect([UInt8](try Data(contentsOf: cbor)) == Self.document)

        // Back by the .cbor extension, as typed JSON and as JSON.
        let typed = try ParleyProcess.run(["decode", cbor.path])
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(typed.stdout.contains(#""big":{"$int":"18446744073709551616"}"#), "\(typed.stdout)")
        let back = try ParleyProcess.run(["decode", cbor.path, "--to", "application/json"])
        #expect(back.stdout == #"{"id":7,"tags":["a"],"big":18446744073709551616}"# + "\n", "\(back.stdout)")
    }

    @Test func aBodyWithoutExtensionIsRecognisedByItsSelfDescribeTag() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = folder.appendingPathComponent("body")
        try Data([0xD9, 0xD9, 0xF7] + Self.document).write(to: body)
        let result = try ParleyProcess.run(["decode", body.path, "--to", "application/json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("recognised by the cbor format"), "\(result.stderr)")
        #expect(result.stdout.contains(#""id":7"#))
    }

    @Test func checkReadsCBORBodiesInRecordings() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        func har(_ body: [UInt8], type: String) -> String {
            """
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [{
              "startedDateTime": "2026-11-20T10:00:00.000Z", "time": 1,
              "request": {"method": "GET", "url": "https://api.example.org/things/7", "httpVersion": "HTTP/1.1",
                          "headers": [{"name": "Accept", "value": "application/cbor"}],
                          "queryString": [], "cookies": [],
                          "headersSize": -1, "bodySize": 0},
              "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                           "headers": [{"name": "Content-Type", "value": "\(type)"}], "cookies": [],
                           "content": {"size": \(body.count), "mimeType": "\(type)", "encoding": "base64",
                                       "text": "\(Data(body).base64EncodedString())"},
                           "redirectURL": "", "headersSize": -1, "bodySize": \(body.count)},
              "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}
            """
        }
        let good = folder.appendingPathComponent("good.har")
        try Data(har(Self.document, type: "application/vnd.example.thing+cbor").utf8).write(to: good)
        let passed = try ParleyProcess.run(["check", good.path])
        #expect(passed.status == 0, "\(passed.stdout)")
        #expect(passed.stdout.contains("PASSED"))

        let lying = folder.appendingPathComponent("lying.har")
        try Data(har([0x9B, 0x80, 0, 0, 0, 0, 0, 0, 0], type: "application/cbor").utf8).write(to: lying)
        let failed = try ParleyProcess.run(["check", lying.path])
        #expect(failed.status == 1, "\(failed.stdout)")
        #expect(failed.stdout.contains("cbor"), "\(failed.stdout)")
    }
}
