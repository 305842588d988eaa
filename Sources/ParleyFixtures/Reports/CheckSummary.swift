import Parley
public import ParleyHTTP

/// Totals over a check run.
public struct CheckSummary: Sendable, Hashable {
    /// Recording files read.
    public var recordings = 0
    /// Files passed over as not recordings.
    public var skippedFiles = 0
    /// Files that could not be read (or whose snapshot could not be).
    public var unreadableFiles = 0
    /// Exchanges checked.
    public var exchanges = 0
    /// Exchanges without warnings or errors.
    public var passed = 0
    /// Exchanges whose worst finding is a warning.
    public var warnings = 0
    /// Exchanges with an error.
    public var errors = 0
    /// Bytes of recording files read.
    public var bytes = 0
    /// How many findings of each kind.
    public var findingCounts: [Finding.Kind: Int] = [:]
    /// Snapshot sidecars written.
    public var snapshotsWritten = 0

    /// Creates empty totals.
    public init() {}

    /// Adds one file's outcome.
    public mutating func add(_ check: RecordingCheck) {
        if check.isSkipped { skippedFiles += 1; return }
        if check.readError != nil { unreadableFiles += 1 }
        if check.kind != nil { recordings += 1 }
        if check.wroteSnapshot { snapshotsWritten += 1 }
        bytes += check.byteCount
        for result in check.exchanges {
            exchanges += 1
            switch result.severity {
            case .error: errors += 1
            case .warning: warnings += 1
            default: passed += 1
            }
            for finding in result.findings { findingCounts[finding.kind, default: 0] += 1 }
        }
    }

    /// Whether the run fails.
    public func fails(strict: Bool) -> Bool {
        unreadableFiles > 0 || errors > 0 || (strict && warnings > 0)
    }
}
