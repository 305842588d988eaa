import Parley
import ParleyHTTP

/// The human summary: one line per failing or suspicious exchange with file, entry index,
/// method, URL and reason; totals at the end. Text that comes from a recording (paths, URLs,
/// content types, messages quoting header values) goes through ``TerminalText``, so control
/// characters in a recording are shown escaped, never sent to the terminal. On a terminal the
/// outcomes are coloured through ``TerminalStyle`` (the only escape sequences it writes).
struct TextReporter: CheckReporter {
    let strict: Bool
    let verbose: Bool
    var style: TerminalStyle = .plain
    let write: (String) -> Void

    mutating func record(_ check: RecordingCheck) {
        if let error = check.readError {
            if check.isSkipped {
                if verbose { write(style.secondary("skip") + "  \(safe(check.path)): \(safe(error.message))") }
            } else {
                write(style.failure("FAIL") + "  \(safe(error.path)): \(safe(error.message))")
            }
        }
        for result in check.exchanges {
            let shown = result.findings.filter { $0.severity > .note || verbose }
            guard !shown.isEmpty else { continue }
            let tag = result.fails(strict: strict) ? style.failure("FAIL")
                : (result.severity == .warning ? style.warning("warn") : style.secondary("note"))
            let type = result.contentType.map { " [\(safe($0))]" } ?? ""
            // A snapshot mismatch lists its differences on lines of their own (each already escaped).
            let first = shown.map {
                "\($0.kind): " + ($0.kind == .snapshotMismatch ? TerminalText.escapedKeepingLines($0.message)
                                  : safe($0.message + $0.pathsText))
            }
            write("\(tag)  \(safe(result.label)) → \(result.status)\(type): " + first.joined(separator: "; "))
        }
    }

    private func safe(_ text: String) -> String { TerminalText.escaped(text) }

    mutating func finish(_ summary: CheckSummary) {
        var line = "checked \(summary.recordings) recording\(summary.recordings == 1 ? "" : "s"), "
            + "\(summary.exchanges) exchange\(summary.exchanges == 1 ? "" : "s"): "
            + style.success("\(summary.passed) ok") + ", "
            + (summary.warnings > 0 ? style.warning("\(summary.warnings) with warnings") : "0 with warnings") + ", "
            + (summary.errors > 0 ? style.failure("\(summary.errors) failed") : "0 failed")
        if summary.unreadableFiles > 0 {
            line += ", " + style.failure("\(summary.unreadableFiles) unreadable " +
                                         "file\(summary.unreadableFiles == 1 ? "" : "s")")
        }
        if summary.skippedFiles > 0 {
            line += " (\(summary.skippedFiles) other file\(summary.skippedFiles == 1 ? "" : "s") skipped)"
        }
        if summary.snapshotsWritten > 0 {
            line += "; wrote \(summary.snapshotsWritten) snapshot\(summary.snapshotsWritten == 1 ? "" : "s")"
        }
        let kinds = summary.findingCounts.filter { $0.key.defaultSeverity > .note || verbose }
            .sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key) \($0.value)" }
        if !kinds.isEmpty { line += "\nfindings: " + kinds.joined(separator: ", ") }
        line += "\n" + (summary.fails(strict: strict) ? style.failure("FAILED") : style.success("PASSED"))
            + (strict ? " (strict)" : "")
        write(line)
    }
}

extension ReportFormat {
    /// A reporter as ``reporter(strict:verbose:write:)`` makes, whose text report colours its
    /// outcomes with `style` (the other formats have no colour).
    package func reporter(strict: Bool, verbose: Bool = false, style: TerminalStyle, run: ReportRun = ReportRun(),
                          write: @escaping (String) -> Void) -> any CheckReporter {
        self == .text ? TextReporter(strict: strict, verbose: verbose, style: style, write: write)
            : reporter(strict: strict, verbose: verbose, run: run, write: write)
    }
}
