public import FoundationEssentials
import Parley
import ParleyHTTP

/// Checks recordings file by file: reads each (one at a time per worker), checks every exchange,
/// compares or updates snapshots, and hands results over in input order. A decoded body is
/// released as soon as its exchange is checked, so memory is bounded by the largest recording
/// and the exchanges in flight, not by the bodies a file decodes to.
///
/// ```swift
/// let checker = FixtureChecker(options: CheckOptions(registry: .linked))
/// let files = try FixtureFiles.discover(["Fixtures/recorded"])
/// await checker.run(files) { check in print(check.path, check.fails(strict: false)) }
/// ```
public struct FixtureChecker: Sendable {
    /// What to do with snapshot sidecars.
    public enum SnapshotMode: Sendable {
        /// Compare decoded values with existing sidecars.
        case compare
        /// Write sidecars from the decoded values (and compare nothing).
        case update
    }

    /// The check options.
    public var options: CheckOptions
    /// The recording reader.
    public var reader: RecordingReader
    /// Snapshot handling.
    public var snapshots: SnapshotMode

    /// Creates a checker.
    public init(options: CheckOptions, reader: RecordingReader = RecordingReader(),
                snapshots: SnapshotMode = .compare) {
        self.options = options
        self.reader = reader
        self.snapshots = snapshots
    }

    /// Checks one file.
    public func check(_ file: FixtureFile) -> RecordingCheck {
        let recording: Recording
        do {
            recording = try reader.read(path: file.path)
        } catch {
            let skipped = !file.isExplicit && error.reason == .notARecording
            return RecordingCheck(path: file.path, kind: nil, byteCount: 0, exchanges: [], readError: error,
                                  isSkipped: skipped)
        }
        let checker = ExchangeChecker(options: options)
        var check = RecordingCheck(path: file.path, kind: recording.kind, byteCount: recording.byteCount,
                                   exchanges: [], readError: nil, isSkipped: false)
        var snapshot: Snapshot?
        if snapshots == .compare {
            do { snapshot = try Snapshot.load(for: file.path) } catch { check.readError = error }
        }
        let pinned = Dictionary(grouping: snapshot?.entries ?? [], by: \.index)
        // Each decoded value is compared and then released before the next exchange is checked
        // (only an update keeps them, to write the sidecar): memory is bounded by the exchanges
        // in flight, not by the number in a file.
        var results: [ExchangeResult] = []
        results.reserveCapacity(recording.exchanges.count)
        var seen = Set<Int>()
        for exchange in recording.exchanges {
            var result = checker.check(exchange, path: file.path, kind: recording.kind)
            if seen.insert(result.index).inserted {
                for entry in pinned[result.index] ?? [] { compare(&result, with: entry) }
            }
            if snapshots != .update { result.value = nil }
            results.append(result)
        }
        for entry in snapshot?.entries ?? [] where !seen.contains(entry.index) {
            let missing = Finding(.snapshotMismatch,
                                  "the snapshot pins exchange \(entry.index), which the recording does not have",
                                  severity: options.severity(of: .snapshotMismatch))
            results.append(ExchangeResult(path: file.path, index: entry.index, method: "", url: "",
                                          status: 0, contentType: nil, format: nil, bodyBytes: 0, findings: [missing]))
        }
        if snapshots == .update {
            check.wroteSnapshot = updateSnapshot(results, path: file.path)
            for index in results.indices { results[index].value = nil }
        }
        check.exchanges = results
        return check
    }

    /// Checks `files` on `concurrency` workers (default: one per core), calling `report` with
    /// each file's outcome in the order of `files`.
    public func run(_ files: [FixtureFile], concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
                    report: (RecordingCheck) -> Void) async {
        let window = max(1, concurrency) * 2
        await withTaskGroup(of: (Int, RecordingCheck).self) { group in
            var next = 0
            var emitted = 0
            var finished: [Int: RecordingCheck] = [:]
            func launch() {
                while next < files.count, next - emitted < window {
                    let index = next
                    let file = files[index]
                    group.addTask { (index, self.check(file)) }
                    next += 1
                }
            }
            launch()
            while let (index, check) = await group.next() {
                finished[index] = check
                while let ready = finished.removeValue(forKey: emitted) {
                    report(ready)
                    emitted += 1
                }
                launch()
            }
        }
    }

    private func compare(_ result: inout ExchangeResult, with entry: Snapshot.Entry) {
        guard let value = result.value else {
            result.findings.append(Finding(.snapshotMismatch, "the snapshot pins a value but the body did not decode",
                                           severity: options.severity(of: .snapshotMismatch)))
            return
        }
        let walk = SnapshotComparison.walk(expected: entry.value, actual: value, match: entry.match)
        let differences = walk.found
        if !differences.isEmpty {
            if options.keepsDetails {
                let expected = ValuePreview(entry.value, limits: options.previewLimits)
                result.detail?.snapshot = SnapshotDifference(expected: expected, match: entry.match, paths: walk.paths)
            }
            let message = "differs from its \(entry.match) snapshot:\n    " + differences.joined(separator: "\n    ")
            let severity = options.severity(of: .snapshotMismatch)
            result.findings.append(Finding(.snapshotMismatch, message, severity: severity))
        }
    }

    /// Writes exact snapshots of every decoded exchange; subset entries that still match stay.
    private func updateSnapshot(_ results: [ExchangeResult], path: String) -> Bool {
        let previous = (try? Snapshot.load(for: path)) ?? nil
        let subsetEntries = Dictionary((previous?.entries ?? []).filter { $0.match == .subset }.map { ($0.index, $0) },
                                       uniquingKeysWith: { first, _ in first })
        var entries: [Snapshot.Entry] = []
        for result in results {
            guard let value = result.value else { continue }
            if let kept = subsetEntries[result.index],
               SnapshotComparison.differences(expected: kept.value, actual: value, match: .subset).isEmpty {
                entries.append(kept)
            } else {
                entries.append(Snapshot.Entry(index: result.index, match: .exact, value: value))
            }
        }
        guard !entries.isEmpty else { return false }
        do {
            try Snapshot(entries: entries).write(for: path)
            return true
        } catch {
            return false
        }
    }
}
