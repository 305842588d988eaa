import Foundation

/// One line of the summary: a target of issue #19 and its figure from this run.
struct TargetRow {
    enum Goal {
        /// Parley's speed over the anchor's (the anchor's time divided by Parley's) at least this.
        case speedAtLeast(Double)
        /// A time at most this many seconds (per line for the batch modes, whose paths say so).
        case timeAtMost(Double)
        /// No target: shown for context.
        case none
    }

    var path: String
    var parley: String
    var anchor: String
    /// The figure the goal is checked on (a speed ratio, or a time in seconds).
    var figure: Double
    /// The same figure on the best runs, for speed ratios.
    var figureOnBest: Double?
    var goal: Goal

    /// Whether the goal is met; `nil` without one.
    var met: Bool? {
        switch goal {
        case .speedAtLeast(let ratio): figure >= ratio
        case .timeAtMost(let seconds): figure <= seconds
        case .none: nil
        }
    }

    var ratioText: String {
        switch goal {
        case .timeAtMost: return formatTime(figure)
        case .speedAtLeast, .none:
            let best = figureOnBest.map { String(format: " (%.2f×)", $0) } ?? ""
            return String(format: "%.2f×", figure) + best
        }
    }

    var targetText: String {
        switch goal {
        case .speedAtLeast(let ratio) where ratio < 1 && abs(1 / ratio - (1 / ratio).rounded()) < 0.01:
            return String(format: "≥ %.2f× (within %.0f×)", ratio, 1 / ratio)
        case .speedAtLeast(let ratio):
            return ratio < 1
                ? String(format: "≥ %.2f× (%.0f%%)", ratio, ratio * 100) : String(format: "≥ %g×", ratio)
        case .timeAtMost(let seconds): return "≤ \(formatTime(seconds))"
        case .none: return "—"
        }
    }

    var metText: String { met.map { $0 ? "met" : "NOT MET" } ?? "—" }
}

/// A row comparing two timings of the same work: Parley's and the anchor's.
func speedRow(_ path: String, parley: Timing, anchor: Timing, anchorName: String, goal: TargetRow.Goal) -> TargetRow {
    TargetRow(path: path, parley: formatTiming(parley), anchor: "\(anchorName) \(formatTiming(anchor))",
              figure: anchor.p50 / parley.p50, figureOnBest: anchor.best / parley.best, goal: goal)
}

/// Prints rows as a Markdown table.
func printTable(_ header: [String], _ rows: [[String]]) {
    print("| " + header.joined(separator: " | ") + " |")
    print("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
    for row in rows { print("| " + row.joined(separator: " | ") + " |") }
}

func printTargets(_ rows: [TargetRow]) {
    printTable(["path", "Parley p50 (best)", "anchor p50 (best)", "ratio p50 (best)", "target", "met"],
               rows.map { [$0.path, $0.parley, $0.anchor, $0.ratioText, $0.targetText, $0.metText] })
}
