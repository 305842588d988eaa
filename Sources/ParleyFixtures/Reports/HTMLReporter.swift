import FoundationEssentials
import Parley
public import ParleyHTTP

/// What a report says about the run itself: the command line and Parley's version.
public struct ReportRun: Sendable, Hashable {
    /// The command line, one argument per element.
    public var commandLine: [String]
    /// Parley's version.
    public var version: String

    /// Creates a description of a run.
    public init(commandLine: [String] = [], version: String = DefaultHeaders.parleyVersion) {
        self.commandLine = commandLine
        self.version = version
    }

    /// The command line as a shell would take it back: arguments with anything but letters,
    /// digits and `-_./:=,@%+` single-quoted.
    var shellText: String {
        commandLine.map { argument in
            let plain = !argument.isEmpty && argument.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
                    || "-_./:=,@%+".unicodeScalars.contains($0)
            }
            return plain ? argument : "'" + argument.replacing("'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}

/// The HTML report: one self-contained page (inline CSS and script, no network; a
/// Content-Security-Policy allows only its own script and `data:` images).
///
/// It is written as results arrive, so memory stays bounded however many exchanges there are:
/// the first ``HTMLReportLimits/rowsPerPage`` rows as plain HTML (readable without
/// JavaScript), every row's filter fields and the other rows' HTML as JSON in
/// `<script type="application/json">` blocks (the fields parsed when the page loads, the HTML a
/// block at a time when a page first shows one of its rows), which the page's script pages
/// through and filters, and the summary last (shown first by CSS). Each exchange's HTML is rendered here,
/// once, by ``HTMLExchangeView``; the script only chooses which rows to show.
package struct HTMLReporter: CheckReporter {
    let strict: Bool
    let run: ReportRun
    let limits: HTMLReportLimits
    let write: (String) -> Void
    private let view: HTMLExchangeView
    private let started = Date()
    private let nonce: String
    private var begun = false
    private var tableClosed = false
    private var rows = 0
    private var pendingRows: [String] = []
    private var pendingHTML: [String] = []
    private var firstPendingHTML = 0
    private var pendingCharacters = 0
    private var previewCharacters = 0
    private var unreadable: [(path: String, message: String)] = []

    /// Rows' JSON is written in blocks of about this many characters.
    static let blockCharacters = 256 * 1024
    /// Unreadable files listed by name; past this only counted.
    static let maxListedUnreadable = 1_000

    package init(strict: Bool, run: ReportRun, limits: HTMLReportLimits = HTMLReportLimits(),
         write: @escaping (String) -> Void) {
        self.strict = strict
        self.run = run
        self.limits = limits
        self.write = write
        self.view = HTMLExchangeView(limits: limits)
        var generator = SystemRandomNumberGenerator()
        self.nonce = (0..<4).map { _ in String(generator.next() as UInt64, radix: 36) }.joined()
    }

    package mutating func record(_ check: RecordingCheck) {
        begin()
        if let error = check.readError, !check.isSkipped {
            if unreadable.count < Self.maxListedUnreadable { unreadable.append((error.path, error.message)) }
        }
        for result in check.exchanges { add(result) }
    }

    package mutating func finish(_ summary: CheckSummary) {
        begin()
        closeTable()
        flush()
        write(HTMLSummary(summary: summary, strict: strict, run: run, limits: limits, started: started,
                          seconds: Date().timeIntervalSince(started), unreadable: unreadable).html)
        write("</main>\n<script nonce=\"\(nonce)\">\(HTMLPage.script(rowsPerPage: limits.rowsPerPage))</script>\n" +
              "</body>\n</html>")
    }

    // MARK: Writing

    private mutating func begin() {
        guard !begun else { return }
        begun = true
        write(HTMLPage.head(nonce: nonce) + HTMLPage.tableStart)
    }

    private mutating func add(_ result: ExchangeResult) {
        let index = rows
        rows += 1
        let details = view.details(result, previewAllowed: previewCharacters < limits.maxPreviewCharactersInReport)
        let kinds = result.findings.map { HTMLText.scriptJSONString($0.kind.rawValue) }.joined(separator: ",")
        let json = "{\"i\":\(index),\"p\":\(q(result.path)),\"x\":\(result.index),\"m\":\(q(result.method)),"
            + "\"u\":\(q(result.url)),"
            + "\"s\":\(result.status),\"f\":\(q(result.format ?? "")),\"o\":\(q(result.outcome)),\"k\":[\(kinds)]}"
        pendingRows.append(json)
        let body = view.row(result) + view.detailsRow(result, content: index < limits.rowsPerPage ? details : "")
        if index < limits.rowsPerPage {
            previewCharacters += details.utf8.count
            write("<tbody data-row=\"\(index)\" class=\"o-\(result.outcome)\">\(body)</tbody>")
            return
        }
        closeTable()
        let quoted = q(details)
        previewCharacters += quoted.utf8.count
        if pendingHTML.isEmpty { firstPendingHTML = index }
        let pair = "[\(q(body)),\(quoted)]"
        pendingHTML.append(pair)
        pendingCharacters += pair.utf8.count
        if pendingCharacters >= Self.blockCharacters { flush() }
    }

    private mutating func closeTable() {
        guard !tableClosed else { return }
        tableClosed = true
        write(HTMLPage.tableEnd)
    }

    /// Writes the rows' filter fields so far (parsed when the page loads), then their HTML (parsed
    /// a block at a time when a page of rows first needs it).
    private mutating func flush() {
        if !pendingRows.isEmpty {
            write("<script type=\"application/json\" " +
                  "class=\"parley-rows\">[" + pendingRows.joined(separator: ",") + "]</script>")
            pendingRows.removeAll(keepingCapacity: true)
        }
        if !pendingHTML.isEmpty {
            write("<script type=\"application/json\" class=\"parley-html\" data-first=\"\(firstPendingHTML)\">["
                  + pendingHTML.joined(separator: ",") + "]</script>")
            pendingHTML.removeAll(keepingCapacity: true)
            pendingCharacters = 0
        }
    }

    private func q(_ text: String) -> String { HTMLText.scriptJSONString(text) }
}
