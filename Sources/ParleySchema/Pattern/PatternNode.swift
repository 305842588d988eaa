/// The parsed form of an ECMA-262 pattern, over code units (no `u` flag) or code points (`u`).
indirect enum PatternNode: Sendable {
    /// Matches the empty string.
    case empty
    /// One code unit or code point.
    case unit(UInt32)
    /// Any unit of a set (`.`, a class, `\d`, `\p{…}`); an index into `PatternProgram.sets`.
    case set(Int)
    case concatenation([PatternNode])
    case alternation([PatternNode])
    /// A group; `capture` is its 1-based number when it captures.
    case group(PatternNode, capture: Int?)
    /// `node{min,max}`; `max` is `nil` when unbounded. Greediness only matters to captures.
    case repetition(PatternNode, min: Int, max: Int?, greedy: Bool)
    case assertion(PatternAssertion)
    /// `\1` or `\k<name>`, resolved to the group's number.
    case backreference(Int)
    case lookaround(PatternNode, ahead: Bool, negated: Bool)

    /// Whether matching this needs the backtracking path (backreferences and lookarounds).
    var needsBacktracking: Bool {
        switch self {
        case .empty, .unit, .set, .assertion: false
        case .backreference, .lookaround: true
        case .concatenation(let nodes), .alternation(let nodes): nodes.contains { $0.needsBacktracking }
        case .group(let node, _), .repetition(let node, _, _, _): node.needsBacktracking
        }
    }

    /// The numbers of the capturing groups inside, which are consecutive; `nil` when none.
    var captureRange: ClosedRange<Int>? {
        switch self {
        case .empty, .unit, .set, .assertion, .backreference: return nil
        case .lookaround(let node, _, _), .repetition(let node, _, _, _): return node.captureRange
        case .group(let node, let capture):
            guard let capture else { return node.captureRange }
            return capture...(node.captureRange?.upperBound ?? capture)
        case .concatenation(let nodes), .alternation(let nodes):
            let ranges = nodes.compactMap(\.captureRange)
            guard let first = ranges.first, let last = ranges.last else { return nil }
            return first.lowerBound...last.upperBound
        }
    }

    /// Whether every match must start at the beginning of the text (a leading `^` on every branch).
    var isAnchoredAtStart: Bool {
        switch self {
        case .assertion(.start): true
        case .concatenation(let nodes): nodes.first?.isAnchoredAtStart ?? false
        case .alternation(let nodes): !nodes.isEmpty && nodes.allSatisfy { $0.isAnchoredAtStart }
        case .group(let node, _): node.isAnchoredAtStart
        default: false
        }
    }
}

/// The zero-width assertions of a pattern without the multiline flag.
enum PatternAssertion: Sendable {
    /// `^`: the start of the text.
    case start
    /// `$`: the end of the text (not before a final line break).
    case end
    /// `\b`: between an ASCII word unit and anything else.
    case wordBoundary
    /// `\B`
    case notWordBoundary

    /// Whether the assertion holds between `previous` and `next` (`nil` at either end of the text).
    func holds(previous: UInt32?, next: UInt32?) -> Bool {
        switch self {
        case .start: return previous == nil
        case .end: return next == nil
        case .wordBoundary, .notWordBoundary:
            let boundary = isWordUnit(previous) != isWordUnit(next)
            return (self == .wordBoundary) == boundary
        }
    }
}

/// `[A-Za-z0-9_]`: ECMA's word characters without the ignore-case flag.
func isWordUnit(_ unit: UInt32?) -> Bool {
    guard let unit else { return false }
    return (unit >= 0x61 && unit <= 0x7A) || (unit >= 0x41 && unit <= 0x5A) || (unit >= 0x30 && unit <= 0x39)
        || unit == 0x5F
}
