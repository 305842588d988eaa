/// Writes a check run's results as they arrive, in one of the report formats.
public protocol CheckReporter {
    /// Called once per file, in input order.
    mutating func record(_ check: RecordingCheck)
    /// Called once at the end with the totals.
    mutating func finish(_ summary: CheckSummary)
}

/// The report formats of `parley check --report`.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// One line per failing or suspicious exchange, totals at the end.
    case text
    /// JSON Lines: one record per exchange (and per unreadable file), a summary record last.
    case json
    /// JUnit XML: a test suite per recording, a test case per exchange.
    case junit
    /// One self-contained HTML page: a summary with charts, and a table of every exchange that
    /// pages, filters and expands to header fields and a body preview (see ``HTMLReportLimits``).
    case html

    /// Whether the reporter shows more than findings, so the checker must keep
    /// ``ExchangeResult/detail`` (set ``CheckOptions/keepsDetails`` to this).
    public var needsDetails: Bool { self == .html }

    /// A reporter of this format writing through `write`; `run` tells the HTML report the
    /// command line and version it shows.
    public func reporter(strict: Bool, verbose: Bool = false, run: ReportRun = ReportRun(),
                         write: @escaping (String) -> Void) -> any CheckReporter {
        switch self {
        case .text: TextReporter(strict: strict, verbose: verbose, write: write)
        case .json: JSONLinesReporter(write: write)
        case .junit: JUnitReporter(strict: strict, write: write)
        case .html: HTMLReporter(strict: strict, run: run, write: write)
        }
    }
}

extension ExchangeResult {
    /// `path#index METHOD URL`, or `path#index` for raw captures.
    var label: String {
        let request = url.isEmpty ? "" : " \(method) \(url)"
        return "\(path)#\(index)\(request)"
    }
}
