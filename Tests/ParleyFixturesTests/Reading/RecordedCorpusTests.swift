import Foundation
import Parley
import ParleyHTTP
import ParleyJSON
import ParleyTestKit
import Testing
import ParleyFixtures

/// The real recordings in `../shared/corpora/recorded`, described by its `index.json`.
@Suite("Recorded corpus")
struct RecordedCorpusTests {
    static let folder = Corpora.directory("recorded")

    @Test("Every recording expected to parse is read with the indexed interaction count; the rest are refused")
    func corpus() throws {
        guard let folder = Self.folder else {
            print(Corpora.missingMessage("recorded"))
            return
        }
        let indexBytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent("index.json")))
        let index = try #require(try JSONFormat().decode(indexBytes).objectValue)
        var read = 0, refused = 0
        for entry in index {
            let path = folder.appendingPathComponent(entry.key).path
            if entry.value["expect"]?.stringValue == "parse" {
                let recording = try RecordingReader().read(path: path)
                #expect(Int64(recording.exchanges.count) == entry.value["interactions"]?.integerValue, "\(entry.key)")
                read += 1
            } else {
                #expect(throws: RecordingError.self, "\(entry.key)") { try RecordingReader().read(path: path) }
                refused += 1
            }
        }
        print("recorded corpus: \(read) recordings read, \(refused) refused as expected")
        #expect(read + refused == index.count)
    }

    @Test("Checking the corpus classifies every exchange without crashing, in input order")
    func checkCorpus() async throws {
        guard let folder = Self.folder else {
            print(Corpora.missingMessage("recorded"))
            return
        }
        let files = try FixtureFiles.discover([folder.path])
        var checks: [RecordingCheck] = []
        await FixtureChecker(options: CheckOptions(registry: testRegistry)).run(files) { checks.append($0) }
        #expect(checks.map(\.path) == files.map(\.path))
        var summary = CheckSummary()
        checks.forEach { summary.add($0) }
        #expect(summary.recordings == 79)
        #expect(summary.unreadableFiles == 3)
        // The corpus's own quirks show up as findings.
        #expect(summary.findingCounts[.corruptEncoding] == 1)
        #expect((summary.findingCounts[.lengthMismatch] ?? 0) >= 14)
        #expect((summary.findingCounts[.storedDecoded] ?? 0) >= 11)
    }
}
