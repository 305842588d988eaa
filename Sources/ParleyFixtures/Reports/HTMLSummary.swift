import FoundationEssentials
import Parley
import ParleyHTTP

/// The HTML report's summary: the verdict, counts per outcome and per finding kind with bar
/// charts (inline SVG), how the run went (command line, version, time, throughput), and the
/// files that could not be read.
struct HTMLSummary {
    let summary: CheckSummary
    let strict: Bool
    let run: ReportRun
    let limits: HTMLReportLimits
    let started: Date
    let seconds: Double
    let unreadable: [(path: String, message: String)]

    var html: String {
        let failed = summary.fails(strict: strict)
        var html = "<section id=\"summary\" class=\"summary\" aria-labelledby=\"summary-title\">"
        html += "<h2 id=\"summary-title\">Summary <span class=\"verdict \(failed ? "failed" : "passed")\">"
            + "\(failed ? "FAILED" : "PASSED")\(strict ? " (strict)" : "")</span></h2>"
        html += "<div class=\"cards\">"
        let outcomes = [("ok", summary.passed), ("warning", summary.warnings), ("error", summary.errors)]
        html += "<div class=\"card\"><h3>Exchanges by outcome</h3>"
            + counts(outcomes.map { ("<span class=\"badge \($0.0)\">\($0.0)</span>", $0.0, $0.1) }, header: "Outcome",
                     key: "outcome")
            + chart(outcomes.map { ($0.0, $0.1, "bar-\($0.0)") }, label: "Exchanges by outcome") + "</div>"
        let kinds = summary.findingCounts.sorted { $0.key.rawValue < $1.key.rawValue }
        html += "<div class=\"card\"><h3>Findings by kind</h3>"
        if kinds.isEmpty {
            html += "<p class=\"dim\">No findings.</p>"
        } else {
            html += counts(kinds.map { ("<code>\($0.key.rawValue)</code>", $0.key.rawValue, $0.value) }, header: "Kind",
                           key: "kind")
                + chart(kinds.map { ($0.key.rawValue, $0.value, "bar-\($0.key.defaultSeverity)") },
                        label: "Findings by kind")
        }
        html += "</div>"
        let time = max(seconds, 1e-9)
        var facts: [(String, String)] = [
            ("Command", "<code>\(HTMLText.escaped(run.shellText))</code>"),
            ("Parley", HTMLText.escaped(run.version)),
            ("Started", started.formatted(.iso8601)),
            ("Time", "\(cFormat("%.2f", seconds)) s"),
            ("Throughput",
             "\(HTMLText.byteCount(Int(Double(summary.bytes) / time)))/s, " +
             "\(HTMLText.grouped(Int(Double(summary.exchanges) / time))) exchanges/s"),
            ("Recordings",
             "<span data-count=\"recordings\">\(summary.recordings)</span> (\(HTMLText.byteCount(summary.bytes)))"),
            ("Exchanges", "<span data-count=\"exchanges\">\(summary.exchanges)</span>"),
            ("Unreadable files", "<span data-count=\"unreadable_files\">\(summary.unreadableFiles)</span>"),
        ]
        if summary.skippedFiles > 0 { facts.append(("Skipped files", "\(summary.skippedFiles) (not recordings)")) }
        if summary.snapshotsWritten > 0 { facts.append(("Snapshots written", "\(summary.snapshotsWritten)")) }
        html += "<div class=\"card\"><h3>Run</h3><dl>" + facts.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }.joined()
            + "</dl></div>"
        html += "</div>"
        if summary.exchanges > limits.rowsPerPage {
            html += "<noscript><p class=\"cut\">Without JavaScript this page lists the first \(limits.rowsPerPage) " +
                    "of \(HTMLText.grouped(summary.exchanges)) exchanges; turn it on to page through all of them and " +
                    "filter.</p></noscript>"
        }
        if !unreadable.isEmpty {
            html += "<h3>Files that could not be read</h3><ul class=\"unreadable\">"
                + unreadable.map { "<li><span class=\"file\">\(HTMLText.escaped($0.path))</span>: " +
                                   "\(HTMLText.escaped($0.message))</li>" }.joined()
                + "</ul>"
            if summary.unreadableFiles > unreadable.count {
                html += "<p class=\"cut\">… and \(summary.unreadableFiles - unreadable.count) more</p>"
            }
        }
        return html + "</section>"
    }

    private func counts(_ items: [(label: String, key: String, count: Int)], header: String, key: String) -> String {
        "<table class=\"counts\"><thead><tr><th scope=\"col\">\(header)</th>"
            + "<th scope=\"col\">Count</th></tr></thead><tbody>"
            + items.map {
                "<tr><th scope=\"row\">\($0.label)</th><td data-\(key)=\"\($0.key)\">\($0.count)</td></tr>"
            }.joined()
            + "</tbody></table>"
    }

    /// A horizontal bar chart: one bar per item, its length proportional to the count.
    private func chart(_ items: [(name: String, count: Int, style: String)], label: String) -> String {
        let largest = max(1, items.map(\.count).max() ?? 1)
        let rowHeight = 22, labelWidth = 170, barWidth = 200
        let height = items.count * rowHeight
        var svg = "<svg class=\"chart\" role=\"img\" aria-label=\"\(label)\" width=\"\(labelWidth + barWidth + 60)\" " +
                  "height=\"\(height)\" viewBox=\"0 0 \(labelWidth + barWidth + 60) \(height)\">"
        for (offset, item) in items.enumerated() {
            let y = offset * rowHeight
            let width = item.count == 0 ? 0 : max(2, item.count * barWidth / largest)
            svg += "<text x=\"0\" y=\"\(y + 15)\">\(item.name)</text>"
                + "<rect class=\"\(item.style)\" x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(width)\" " +
                  "height=\"16\"><title>\(item.name): \(item.count)</title></rect>"
                + "<text x=\"\(labelWidth + width + 6)\" y=\"\(y + 15)\">\(item.count)</text>"
        }
        return svg + "</svg>"
    }
}
