import Foundation
import Testing

/// `parley check` end to end, on the repository's own Fixtures/.
@Suite struct CheckCommandTests {
    static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    func check(_ arguments: [String]) throws -> ParleyProcess.Result {
        try ParleyProcess.run(["check"] + arguments, directory: Self.root)
    }

    @Test func theCleanSetPasses() throws {
        let result = try check(["Fixtures/recorded"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("checked 8 recordings"))
        #expect(result.stdout.hasSuffix("PASSED\n"))
        // The mislabelled JSON is reported as a warning, not a failure.
        #expect(result.stdout.contains("warn  Fixtures/recorded/vcrpy-httpbin.yaml#1 GET " +
                                       "https://legacy.example/api/status"))
    }

    @Test func strictTurnsWarningsIntoFailures() throws {
        let result = try check(["Fixtures/recorded/vcrpy-httpbin.yaml", "--strict"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL  Fixtures/recorded/vcrpy-httpbin.yaml#1"))
    }

    @Test(arguments: ["broken-json.har", "html-error-page-as-json.yml", "corrupt-gzip.yaml", "jpeg-labelled-png.http",
                      "malformed-content-type.yaml", "not-a-recording.har"])
    func everyFailingRecordingFails(name: String) throws {
        let result = try check(["Fixtures/failing/\(name)"])
        // A file that is no recording cannot be read: exit 2 (the report still lists it).
        #expect(result.status == (name == "not-a-recording.har" ? 2 : 1), "\(result.stdout)")
        #expect(result.stdout.contains("FAIL  Fixtures/failing/\(name)"))
    }

    @Test func statusFilterFailsOtherStatuses() throws {
        let result = try check(["Fixtures/recorded/go-vcr-v2.yaml", "--status", "2xx"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("unacceptable-status: status 404 is not acceptable (acceptable: 200-299)"))
    }

    @Test func theReportIsWrittenThroughASymbolicLinkAsAShellRedirectionWritesIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("report.jsonl"), link = folder.appendingPathComponent("latest")
        try Data("an older, longer report that must not survive\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)

        let result = try check(["Fixtures/recorded/go-vcr-v2.yaml", "--report", "json", "--output", link.path])
        #expect(result.status == 0)
        // The link is still a link (a file renamed over it would replace it, as it replaced
        // /dev/null when run as root), and the report truncated its target.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        let report = try String(contentsOf: target, encoding: .utf8)
        #expect(report.hasPrefix("{"))
        #expect(!report.contains("must not survive"))
    }

    @Test func anUnwritableOutputPathIsAnInputError() throws {
        let result = try check(["Fixtures/recorded/go-vcr-v2.yaml", "--output", "/nonexistent-folder/report.txt"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot write '/nonexistent-folder/report.txt': No such file or directory"))
    }

    @Test func junitReportGoesToAFile() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("parley-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try check(["Fixtures/recorded", "--report", "junit", "--output", output.path])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        let xml = try String(contentsOf: output, encoding: .utf8)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"parley check\">"))
        #expect(xml.components(separatedBy: "<testsuite ").count - 1 == 8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 26)
        #expect(!xml.contains("<failure"))
    }

    @Test func jsonReportHasOneLinePerExchange() throws {
        let result = try check(["Fixtures/recorded", "--report", "json"])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 27)
        #expect(lines.last?.hasPrefix("{\"type\":\"summary\",\"recordings\":8,\"exchanges\":26,") == true)
    }

    @Test func shardsSplitTheFilesWithoutOverlap() throws {
        var seen: [Substring] = []
        for shard in 1...3 {
            let result = try check(["Fixtures/recorded", "--report", "json", "--shard", "\(shard)/3"])
            #expect(result.status == 0)
            seen += result.stdout.split(separator: "\n").filter {
                $0.contains("\"type\":\"exchange\"") && $0.contains("\"index\":0,")
            }
        }
        #expect(seen.count == 8)
        #expect(try check(["Fixtures/recorded", "--shard", "4/3"]).status == 2)
    }

    @Test func statsGoToStandardError() throws {
        let result = try check(["Fixtures/recorded", "--stats"])
        #expect(result.stderr.contains("stats: 8 files (8 recordings), 26 exchanges"))
        #expect(result.stderr.contains("MB/s"))
    }

    @Test func badOptionsAndPathsExitTwo() throws {
        #expect(try check(["Fixtures/recorded", "--report", "yaml"]).status == 2)
        #expect(try check(["Fixtures/recorded", "--severity", "nonsense=error"]).status == 2)
        #expect(try check(["Fixtures/no-such-folder"]).status == 2)
    }

    @Test func recordingFoldersAreNeverWritten() throws {
        let recorded = Self.root.appendingPathComponent("Fixtures/recorded").path
        let before = try FileManager.default.contentsOfDirectory(atPath: recorded).sorted()
        _ = try check(["Fixtures/recorded", "--report", "junit"])
        let after = try FileManager.default.contentsOfDirectory(atPath: recorded).sorted()
        #expect(before == after)
    }
}
