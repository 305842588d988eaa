import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
package import ParleyFixtures

/// `parley check`'s progress line on standard error, only on a terminal: files done of the total,
/// throughput, an estimate of the time left and the failures so far, redrawn in place at most ten
/// times a second and cleared before each report line and at the end.
package final class ProgressLine: @unchecked Sendable {
    let total: Int
    let enabled: Bool
    let style: TerminalStyle
    private let started = Date()
    private var lastDraw = Date.distantPast

    init(total: Int, enabled: Bool, style: TerminalStyle = .plain) {
        self.total = total
        self.enabled = enabled && total > 1
        self.style = style
    }

    /// Redraws the line after `summary` took in the file at `path`, the `done`-th of ``total``.
    func update(_ done: Int, summary: CheckSummary, path: String) {
        guard enabled, Date().timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
        lastDraw = Date()
        let line = Self.text(done: done, total: total, bytes: summary.bytes,
                             failed: summary.errors + summary.unreadableFiles,
                             elapsed: lastDraw.timeIntervalSince(started), path: path, style: style)
        Descriptors.writeAll("\r\u{1B}[K\(line)", to: STDERR_FILENO)
    }

    func clear() {
        if enabled { Descriptors.writeAll("\r\u{1B}[K", to: STDERR_FILENO) }
    }

    /// The line's text: `[12/40] 3.4 MB/s, 0:05 left, 2 failed  path`. The time left is the mean
    /// time per file so far times the files left (shown once a file is done and time has passed);
    /// the path (escaped by `TerminalText`) keeps its last 40 characters.
    package static func text(done: Int, total: Int, bytes: Int, failed: Int, elapsed: Double, path: String,
                     style: TerminalStyle) -> String {
        let seconds = max(elapsed, 0)
        var parts: [String] = []
        parts.append(seconds > 0 ? cFormat("%.1f MB/s", Double(bytes) / 1_000_000 / seconds) : "– MB/s")
        if done >= total {
            parts.append("done")
        } else if done > 0 && seconds > 0 {
            parts.append(duration(seconds / Double(done) * Double(total - done)) + " left")
        } else {
            parts.append("estimating")
        }
        if failed > 0 { parts.append(style.failure("\(failed) failed")) }
        let shown = TerminalText.escaped(path)
        let name = shown.count > 40 ? "…" + shown.suffix(39) : shown
        return "[\(done)/\(total)] " + parts.joined(separator: ", ") + "  " + style.secondary(name)
    }

    /// `m:ss`, or `h:mm:ss` from an hour, rounded up to whole seconds.
    package static func duration(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? Int(min(seconds, 359_999).rounded(.up)) : 359_999
        let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60)
        return h > 0 ? cFormat("%ld:%02ld:%02ld", h, m, s) : cFormat("%ld:%02ld", m, s)
    }
}
