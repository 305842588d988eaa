/// A coding key for an array index or a fixed name (`"super"`), used in coding paths.
///
/// The text of an index key (`"Index 3"`) is only built when asked for, and the key fits an
/// existential's inline buffer (an enum of an `Int` or a `String`, 17 bytes), so pushing one on
/// a coding path allocates nothing.
package enum CodingIndexKey: CodingKey {
    case index(Int)
    case name(String)

    package init(stringValue: String) { self = .name(stringValue) }

    package init(intValue: Int) { self = .index(intValue) }

    package var intValue: Int? {
        if case .index(let index) = self { return index }
        return nil
    }

    package var stringValue: String {
        switch self {
        case .index(let index): "Index \(index)"
        case .name(let name): name
        }
    }
}

extension Array where Element == any CodingKey {
    /// The first `count` keys of this path, then `nestedKeys`, then `key`: the path of a value
    /// a container reads, rebuilt only when asked for (usually for an error).
    package func codingPath(
        prefix count: Int, _ nestedKeys: [any CodingKey], _ key: (any CodingKey)?
    ) -> [any CodingKey] {
        var path = Array(prefix(count)) + nestedKeys
        if let key { path.append(key) }
        return path
    }
}
