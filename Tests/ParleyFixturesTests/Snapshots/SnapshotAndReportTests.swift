import Foundation
import Parley
import ParleyFixtures
import ParleyHTTP
import ParleyJSON
import ParleyXML
import Testing

@Suite("Snapshots, reports and sharding")
struct SnapshotAndReportTests {
    /// A copy of a clean recording in a temporary folder, so sidecars can be written.
    func copy(_ relative: String) throws -> (folder: URL, path: String) {
        let folder = try temporaryFolder()
        let target = folder.appendingPathComponent((relative as NSString).lastPathComponent)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: fixture(relative)), to: target)
        return (folder, target.path)
    }

    @Test("Update writes exact snapshots; a later compare passes")
    func updateThenCompare() throws {
        let (folder, path) = try copy("recorded/go-vcr-v2.yaml")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = FixtureFile(path: path, isExplicit: true)
        let updated = FixtureChecker(options: CheckOptions(registry: testRegistry), snapshots: .update).check(file)
        #expect(updated.wroteSnapshot)
        let snapshot = try #require(try Snapshot.load(for: path))
        #expect(snapshot.entries.map(\.index) == [0, 1])
        #expect(snapshot.entries[0].value == sampleUser)
        #expect(snapshot.entries.allSatisfy { $0.match == .exact })
        let compared = FixtureChecker(options: CheckOptions(registry: testRegistry)).check(file)
        #expect(!compared.fails(strict: true))
    }

    @Test("A differing value fails with a readable diff by path; subsets ignore extra members")
    func mismatch() throws {
        let (folder, path) = try copy("recorded/go-vcr-v2.yaml")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Snapshot(entries: [
            .init(index: 0, match: .subset, value: ["login": "ada", "tags": ["math", "engines"]]),
            .init(index: 1, match: .exact, value: ["type": "about:blank", "title": "Gone", "status": .integer(404)]),
        ]).write(for: path)
        let checker = FixtureChecker(options: CheckOptions(registry: testRegistry))
        let check = checker.check(FixtureFile(path: path, isExplicit: true))
        #expect(check.exchanges[0].findings.isEmpty)
        let finding = try #require(check.exchanges[1].findings.first)
        #expect(finding.kind == .snapshotMismatch)
        #expect(finding.message.contains("$.title: expected \"Gone\", got \"Not Found\""))
        #expect(check.fails(strict: false))
    }

    @Test("Structural differences name each path")
    func differences() {
        let expected: Value = ["a": [1, 2, 3], "b": ["c": "x"], "d": true]
        let actual: Value = ["a": [1, 5], "b": ["c": "x", "e": 1], "f": .null]
        let exact = SnapshotComparison.differences(expected: expected, actual: actual, match: .exact)
        #expect(exact == ["$.a: expected 3 elements, got 2", "$.a[1]: expected 2, got 5", "$.b.e: unexpected 1",
                          "$.d: missing (expected true)", "$.f: unexpected null"])
        let subset = SnapshotComparison.differences(expected: ["b": ["c": "x"]], actual: actual, match: .subset)
        #expect(subset.isEmpty)
    }

    func runClean(_ format: ReportFormat, strict: Bool = false) async throws -> [String] {
        let files = try FixtureFiles.discover([fixture("recorded"), fixture("failing")])
        var lines: [String] = []
        var reporter = format.reporter(strict: strict) { lines.append($0) }
        var summary = CheckSummary()
        await FixtureChecker(options: CheckOptions(registry: testRegistry)).run(files, concurrency: 2) { check in
            summary.add(check)
            reporter.record(check)
        }
        reporter.finish(summary)
        return lines
    }

    @Test("JUnit report is well-formed XML with a suite per recording and failures where they belong")
    func junit() async throws {
        let text = try await runClean(.junit).joined(separator: "\n")
        let document = try XML.Document(parsing: Array(text.utf8))
        #expect(document.root.name.localName == "testsuites")
        let suites = document.root.children(named: "testsuite")
        #expect(suites.count == 14)
        let broken = try #require(suites.first { $0["name"]?.hasSuffix("broken-json.har") == true })
        #expect(broken["failures"] == "1")
        #expect(broken.firstChild(named: "testcase")?.firstChild(named: "failure")?["type"] == "decode-failed")
        let unreadable = try #require(suites.first { $0["name"]?.hasSuffix("not-a-recording.har") == true })
        #expect(unreadable["errors"] == "1")
        let har = try #require(suites.first { $0["name"]?.hasSuffix("api-session.har") == true })
        #expect(har["tests"] == "12")
        #expect(har["failures"] == "0")
    }

    @Test("JSON report: one parseable record per exchange and a summary last")
    func jsonLines() async throws {
        let lines = try await runClean(.json)
        let records = try lines.map { try JSONFormat().decode(Array($0.utf8)) }
        let exchanges = records.filter { $0["type"] == "exchange" }
        #expect(exchanges.count == records.count - 2)  // one unreadable file, one summary
        let summary = try #require(records.last)
        #expect(summary["type"] == "summary")
        #expect(summary["exchanges"]?.integerValue == Int64(exchanges.count))
        #expect(exchanges.first?["file"]?.stringValue?.hasSuffix("recorded/api-session.har") == true)  // input order
        let broken = try #require(exchanges.first {
            $0["file"]?.stringValue?.hasSuffix("failing/broken-json.har") == true
        })
        #expect(broken["outcome"] == "error")
        #expect(broken["status"] == 200)
        #expect(broken["findings"]?[0]?["kind"] == "decode-failed")
    }

    @Test("Text report: a line per failing exchange, totals at the end")
    func text() async throws {
        let lines = try await runClean(.text)
        #expect(lines.contains {
            $0.hasPrefix("FAIL ") && $0.contains("broken-json.har#0 GET https://api.example.org/broken → 200")
        })
        let totals = try #require(lines.last)
        #expect(totals.hasPrefix("checked 13 recordings"))
        #expect(totals.hasSuffix("FAILED"))
    }

    @Test("Shards are disjoint, cover everything, and do not move when files are added")
    func shards() throws {
        let files = (0..<200).map { FixtureFile(path: "corpus/file-\($0).har", isExplicit: false) }
        let shards = (1...4).map { FixtureFiles.shard(files, index: $0, of: 4) }
        #expect(shards.map(\.count).reduce(0, +) == files.count)
        #expect(Set(shards.flatMap { $0.map(\.path) }).count == files.count)
        #expect(shards.allSatisfy { $0.count > 20 })
        let grown = files + [FixtureFile(path: "corpus/new.har", isExplicit: false)]
        #expect(FixtureFiles.shard(grown, index: 2, of: 4).filter { $0.path != "corpus/new.har" } == shards[1])
    }

    @Test("Folder walks skip documentation, sidecars and hidden files, sorted")
    func discovery() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["b.har", "a.yaml", "README.md", "a.yaml.parley.json", ".hidden.har", "LICENSE"] {
            try Data("x".utf8).write(to: folder.appendingPathComponent(name))
        }
        let found = try FixtureFiles.discover([folder.path]).map { ($0.path as NSString).lastPathComponent }
        #expect(found == ["a.yaml", "b.har"])
        #expect(throws: RecordingError.self) { try FixtureFiles.discover([folder.appendingPathComponent("nope").path]) }
    }

    @Test("Folder walks go into subfolders, not into hidden folders or through symbolic links")
    func discoveryInSubfolders() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        for sub in ["a/b", ".hidden", "z"] {
            try manager.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for name in ["top.har", "a/one.har", "a/b/two.har", ".hidden/three.har", "z/four.har"] {
            try Data("x".utf8).write(to: folder.appendingPathComponent(name))
        }
        // A link back to the folder would loop if followed; a link to a file is not a file of its own.
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("a/loop").path,
                                       withDestinationPath: folder.path)
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("link.har").path,
                                       withDestinationPath: folder.appendingPathComponent("top.har").path)
        let expected = ["a/b/two.har", "a/one.har", "top.har", "z/four.har"]
        for argument in [folder.path, folder.path + "/"] {
            let found = try FixtureFiles.discover([argument])
            #expect(found.map(\.path) == expected.map { folder.path + "/" + $0 })
            #expect(found.allSatisfy { !$0.isExplicit })
        }
        // Named explicitly, a file is taken as it is, and a file found twice is listed once.
        let explicit = try FixtureFiles.discover([folder.path + "/a/one.har", folder.path + "/a"])
        #expect(explicit.map(\.path) == [folder.path + "/a/one.har", folder.path + "/a/b/two.har"])
        #expect(explicit.map(\.isExplicit) == [true, false])
    }

    @Test("cFormat fills in C conversions, also past its first buffer")
    func cFormatting() {
        #expect(cFormat("%.2f s", 1.005) == "1.00 s")
        #expect(cFormat("%ld:%02ld", 7, 5) == "7:05")
        #expect(cFormat("%ld", Int.max) == "9223372036854775807")
        #expect(cFormat("%300ld!", 1) == String(repeating: " ", count: 299) + "1!")
    }
}
