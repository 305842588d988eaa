import Foundation
import Testing

/// `parley decode FILE` without `--content-type`: the type from the extension, else from the
/// bytes, said on standard error; a clear error (exit 2) when neither tells.
@Suite struct DecodeTypeChoiceTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-decode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ contents: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url.path
    }

    @Test func theExtensionChoosesTheType() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ParleyProcess.run(["decode", try file("config.YAML", "name: parley\nsize: 3\n"), "--to",
                                            "application/json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "parley: decoding as application/yaml (from the extension .yaml)\n")
        #expect(result.stdout.contains(#""name""#) && result.stdout.contains(#""parley""#))
    }

    @Test func theExtensionWinsOverWhatTheContentLooksLike() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // JSON text is YAML too; a .txt file of JSON is text.
        let result = try ParleyProcess.run(["decode", try file("notes.txt", #"{"a": 1}"#), "--to", "text/plain"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("parley: decoding as text/plain (from the extension .txt)"))
        #expect(result.stdout == "{\"a\": 1}\n")
    }

    @Test func withoutAKnownExtensionTheContentIsSniffed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let unknownExtension = try ParleyProcess.run(["decode", try file("body.dat", #"{"a": [1, 2]}"#)])
        #expect(unknownExtension.status == 0, "\(unknownExtension.stderr)")
        #expect(unknownExtension.stderr
                == "parley: decoding as application/json (from the content, recognised by the json format; "
            + "the extension .dat is not one parley knows)\n")
        #expect(unknownExtension.stdout == #"{"a":[{"$int":"1"},{"$int":"2"}]}"# + "\n")

        let stdin = try ParleyProcess.run(["decode"], input: "<?xml version=\"1.0\"?><a>1</a>")
        #expect(stdin.status == 0, "\(stdin.stderr)")
        #expect(stdin.stderr.hasPrefix("parley: decoding as application/xml (from the content, recognised by the xml " +
                                       "format)"))
    }

    @Test func anExtensionNoFormatDecodesFallsBackToTheContent() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // .mp4 means video/mp4, which no linked format decodes; the bytes are JSON.
        let result = try ParleyProcess.run(["decode", try file("clip.mp4", #"{"ok": true}"#)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("decoding as application/json (from the content"))
        #expect(result.stderr.contains("the extension .mp4 means video/mp4, which no linked format decodes"))
    }

    @Test func neitherExtensionNorContentIsAClearError() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try ParleyProcess.run(["decode", try file("README", "just words")])
        #expect(file.status == 2)
        #expect(file.stdout.isEmpty)
        #expect(file.stderr.contains("cannot tell the type of"))
        #expect(file.stderr.contains("the file name has no extension"))
        #expect(file.stderr.contains("pass --content-type TYPE"))

        let stdin = try ParleyProcess.run(["decode", "-"], input: "just words")
        #expect(stdin.status == 2)
        #expect(stdin.stderr.contains("cannot tell the type of standard input"))
    }

    @Test func anExplicitContentTypeIsUsedSilently() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ParleyProcess.run(["decode", try file("data.yaml", "[1]"), "--content-type",
                                            "application/json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == #"[{"$int":"1"}]"# + "\n")
    }
}
