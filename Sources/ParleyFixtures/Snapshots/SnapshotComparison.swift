import Foundation
import Parley

/// Compares decoded values with pinned ones and describes the differences by path.
enum SnapshotComparison {
    /// The differences between `expected` and `actual` (empty when they match), at most `limit`.
    static func differences(expected: Value, actual: Value, match: Snapshot.Match, limit: Int = 8) -> [String] {
        var found: [String] = []
        compare(expected, actual, path: "$", subset: match == .subset, into: &found, limit: limit)
        return found
    }

    private static func compare(_ expected: Value, _ actual: Value, path: String, subset: Bool,
                                into found: inout [String], limit: Int) {
        guard found.count < limit else { return }
        switch (expected, actual) {
        case (.object(let e), .object(let a)):
            for member in e {
                guard let other = a[member.key] else {
                    found.append("\(path).\(member.key): missing (expected \(render(member.value)))")
                    continue
                }
                compare(member.value, other, path: "\(path).\(member.key)", subset: subset, into: &found, limit: limit)
            }
            if !subset {
                for member in a where e[member.key] == nil {
                    guard found.count < limit else { return }
                    found.append("\(path).\(member.key): unexpected \(render(member.value))")
                }
            }
        case (.array(let e), .array(let a)):
            if e.count != a.count {
                found.append("\(path): expected \(e.count) elements, got \(a.count)")
            }
            for (index, pair) in zip(e, a).enumerated() {
                compare(pair.0, pair.1, path: "\(path)[\(index)]", subset: subset, into: &found, limit: limit)
            }
        default:
            if expected != actual {
                found.append("\(path): expected \(render(expected)), got \(render(actual))")
            }
        }
    }

    /// `value` as one line of typed JSON, shortened.
    static func render(_ value: Value) -> String {
        let text = TypedJSONText.compact(value)
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}

/// A compact JSON rendering for messages (not a serializer: formats do that).
enum TypedJSONText {
    static func compact(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .float(let d): return String(d)
        case .number(let n): return n
        case .string(let s): return quote(s)
        case .array(let items): return "[" + items.map(compact).joined(separator: ",") + "]"
        case .object(let object):
            return "{" + object.map { quote($0.key) + ":" + compact($0.value) }.joined(separator: ",") + "}"
        case .bytes(let b): return "<\(b.count) bytes>"
        case .date(let d): return "{\"$date\":\"\(d)\"}"
        case .tagged(let tag, let inner): return "!\(tag) " + compact(inner)
        }
    }

    static func quote(_ text: String) -> String { JSONStringLiteral.quoted(text) }
}
