public import Parley

/// A decoded value cut to what the HTML report shows of it, built when the exchange is checked
/// so a report holds this instead of the whole value.
///
/// It keeps at most ``HTMLReportLimits/maxTreeNodes`` values, taken depth-first in document
/// order as the report's tree shows them, and ``HTMLReportLimits/maxTreeDepth`` levels; strings
/// keep ``HTMLReportLimits/maxStringCharacters`` characters (a body that is one string,
/// ``HTMLReportLimits/maxTextCharacters``) and byte strings only their size. A CSV table keeps
/// its first ``HTMLReportLimits/maxCSVRows`` records instead. Every container keeps its real
/// member count and every string its real size, so the page says how much was left out.
///
/// ```swift
/// let preview = ValuePreview(.array(Array(repeating: 1, count: 5_000)), limits: HTMLReportLimits())
/// // preview.nodeCount == 1_000, preview.elidedCount == 4_001
/// ```
public struct ValuePreview: Sendable, Hashable {
    /// One value of a preview.
    public indirect enum Node: Sendable, Hashable {
        /// A null, Boolean, number or date, as decoded.
        case scalar(Value)
        /// A string's first characters, and the whole string's size in UTF-8 bytes.
        case string(String, byteCount: Int)
        /// A byte string, by its size alone.
        case bytes(count: Int)
        /// An array of `count` elements, the first `items.count` of them kept.
        case array(count: Int, items: [Node])
        /// An object of `count` members, the first `members.count` of them kept.
        case object(count: Int, members: [Member])
        /// A tagged value; `nil` when the tagged value itself was left out.
        case tagged(String, Node?)

        /// The real number of members of a container (1 for a tagged value, 0 for the rest).
        public var memberCount: Int {
            switch self {
            case .array(let count, _), .object(let count, _): count
            case .tagged: 1
            default: 0
            }
        }

        /// The kept member named `key` of an object.
        public subscript(key: String) -> Node? {
            guard case .object(_, let members) = self else { return nil }
            return members.first { $0.key == key }?.value
        }
    }

    /// A kept object member.
    public struct Member: Sendable, Hashable {
        /// The member's key.
        public var key: String
        /// The member's value, cut as the preview is.
        public var value: Node
    }

    /// The value, cut.
    public var root: Node
    /// The values kept, containers included.
    public var nodeCount: Int
    /// The container members left out (each with whatever it holds).
    public var elidedCount: Int

    /// The preview of `value` within `limits`; `isTable` keeps a CSV body's first
    /// ``HTMLReportLimits/maxCSVRows`` records whole rather than ``HTMLReportLimits/maxTreeNodes``
    /// values.
    ///
    /// - Complexity: O(the values kept), whatever the size of `value`.
    public init(_ value: Value, limits: HTMLReportLimits, isTable: Bool = false) {
        var builder = Builder(limits: limits, maxNodes: limits.maxTreeNodes)
        switch value {
        case .string(let text):
            builder.nodes = 1
            root = .string(String(text.prefix(limits.maxTextCharacters)), byteCount: text.utf8.count)
        case .array(let records) where isTable:
            builder.maxNodes = .max
            builder.nodes = 1
            let kept = records.prefix(max(0, limits.maxCSVRows)).map { builder.node($0, depth: 1) }
            builder.elided = records.count - kept.count
            root = .array(count: records.count, items: kept)
        default:
            root = builder.node(value, depth: 0)
        }
        nodeCount = builder.nodes
        elidedCount = builder.elided
    }

    /// Builds nodes depth-first until `maxNodes` are kept.
    private struct Builder {
        let limits: HTMLReportLimits
        var maxNodes: Int
        var nodes = 0
        var elided = 0

        init(limits: HTMLReportLimits, maxNodes: Int) {
            self.limits = limits
            self.maxNodes = maxNodes
        }

        mutating func node(_ value: Value, depth: Int) -> Node {
            nodes += 1
            let deeper = depth < limits.maxTreeDepth
            switch value {
            case .string(let text):
                return .string(String(text.prefix(limits.maxStringCharacters)), byteCount: text.utf8.count)
            case .bytes(let bytes):
                return .bytes(count: bytes.count)
            case .array(let items):
                var kept: [Node] = []
                // Reached by position, so a million elements cost only those kept.
                for position in items.indices {
                    guard deeper, nodes < maxNodes else { break }
                    kept.append(node(items[position], depth: depth + 1))
                }
                elided += items.count - kept.count
                return .array(count: items.count, items: kept)
            case .object(let object):
                var kept: [Member] = []
                for position in 0..<object.count {
                    guard deeper, nodes < maxNodes else { break }
                    let member = object[position]
                    kept.append(Member(key: member.key, value: node(member.value, depth: depth + 1)))
                }
                elided += object.count - kept.count
                return .object(count: object.count, members: kept)
            case .tagged(let tag, let inner):
                guard deeper, nodes < maxNodes else {
                    elided += 1
                    return .tagged(tag, nil)
                }
                return .tagged(tag, node(inner, depth: depth + 1))
            default:
                return .scalar(value)
            }
        }
    }
}
