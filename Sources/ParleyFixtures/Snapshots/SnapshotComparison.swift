import FoundationEssentials
public import Parley

/// Compares decoded values with pinned ones and describes the differences by path.
///
/// The comparison is linear in the size of the two values: members of large objects are looked
/// up through a table built once per object (not by scanning the members for each key), and the
/// path of a member is only written out when it differs.
package enum SnapshotComparison {
    /// Objects with more members than this are compared through a key table.
    static let linearLookupLimit = 16

    /// The differences between `expected` and `actual` (empty when they match), at most `limit`.
    package static func differences(expected: Value, actual: Value, match: Snapshot.Match, limit: Int = 8) -> [String] {
        walk(expected: expected, actual: actual, match: match, limit: limit).found
    }

    /// The finished comparison: the differences described, and their paths.
    static func walk(expected: Value, actual: Value, match: Snapshot.Match, limit: Int = 8) -> Walk {
        var comparison = Walk(subset: match == .subset, limit: limit)
        comparison.compare(expected, actual)
        return comparison
    }

    /// One step of a path: a member key or an array index.
    enum PathStep {
        case key(String)
        case index(Int)
    }

    /// A comparison in progress: the path to the values being compared and what differs so far.
    struct Walk {
        let subset: Bool
        let limit: Int
        var path: [PathStep] = []
        var found: [String] = []
        /// The path of each difference in ``found``, not escaped.
        var paths: [String] = []

        /// Records a difference at the current path (followed by `step`, if given), one line with
        /// any control characters from the values escaped (reports join differences with line feeds).
        mutating func report(_ message: String, at step: PathStep? = nil) {
            var text = "$"
            for part in path + (step.map { [$0] } ?? []) {
                switch part {
                case .key(let key): text += ".\(key)"
                case .index(let index): text += "[\(index)]"
                }
            }
            paths.append(text)
            found.append(TerminalText.escaped("\(text)\(message)"))
        }

        mutating func compare(_ expected: Value, _ actual: Value) {
            guard found.count < limit else { return }
            switch (expected, actual) {
            case (.object(let e), .object(let a)):
                let actualMembers = MemberTable(a)
                for member in e {
                    guard found.count < limit else { return }
                    guard let other = actualMembers.value(forKey: member.key) else {
                        report(": missing (expected \(SnapshotComparison.render(member.value)))", at: .key(member.key))
                        continue
                    }
                    path.append(.key(member.key))
                    compare(member.value, other)
                    path.removeLast()
                }
                if !subset {
                    let expectedMembers = MemberTable(e)
                    for member in a where expectedMembers.value(forKey: member.key) == nil {
                        guard found.count < limit else { return }
                        report(": unexpected \(SnapshotComparison.render(member.value))", at: .key(member.key))
                    }
                }
            case (.array(let e), .array(let a)):
                if e.count != a.count {
                    report(": expected \(e.count) elements, got \(a.count)")
                }
                for (index, pair) in zip(e, a).enumerated() {
                    guard found.count < limit else { return }
                    path.append(.index(index))
                    compare(pair.0, pair.1)
                    path.removeLast()
                }
            default:
                if expected != actual {
                    report(": expected \(SnapshotComparison.render(expected)), got " +
                           "\(SnapshotComparison.render(actual))")
                }
            }
        }
    }

    /// Lookups of an object's members by key (the last member with a key wins, as
    /// `Value.Object`'s subscript does): a scan for small objects, a table built once for large ones.
    struct MemberTable {
        let object: Value.Object
        let table: [String: Value]?

        init(_ object: Value.Object) {
            self.object = object
            if object.count > SnapshotComparison.linearLookupLimit {
                var table: [String: Value] = [:]
                table.reserveCapacity(object.count)
                for member in object { table[member.key] = member.value }
                self.table = table
            } else {
                self.table = nil
            }
        }

        func value(forKey key: String) -> Value? {
            if let table { return table[key] }
            return object[key]
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

extension Snapshot.Entry {
    /// How `actual` differs from this entry's value under its ``match`` rule, by path
    /// (`$.user.id: expected 1, got 2`); empty when it matches.
    ///
    /// - Parameters:
    ///   - actual: The decoded value of the exchange.
    ///   - limit: The most differences described.
    /// - Complexity: O(*n*) in the size of the two values.
    public func differences(from actual: Value, limit: Int = 8) -> [String] {
        SnapshotComparison.differences(expected: value, actual: actual, match: match, limit: limit)
    }
}
