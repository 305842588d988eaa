/// The text each path template variable matched, as written (still percent-encoded): the
/// variables' names and the byte range of the request path each one matched, so matching a
/// request copies no text; a variable's text is made when a parameter reads it.
struct PathVariables: Sendable {
    /// The names, in the template's order (a name the template repeats keeps its last match).
    let names: [String]
    /// The text the ranges are in.
    let path: Substring
    /// The UTF-8 byte range in ``path`` of each name's text, in the order of ``names``.
    let ranges: [Range<Int>]

    init(names: [String], path: Substring, ranges: [Range<Int>]) {
        self.names = names
        self.path = path
        self.ranges = ranges
    }

    /// The variables of a dictionary (their texts laid end to end).
    init(_ variables: [String: String]) {
        // Most inputs made from a dictionary have none (a response's headers).
        guard !variables.isEmpty else {
            self.init(names: [], path: "", ranges: [])
            return
        }
        var path = ""
        var ranges: [Range<Int>] = []
        for value in variables.values {
            ranges.append(path.utf8.count..<(path.utf8.count + value.utf8.count))
            path += value
        }
        self.init(names: Array(variables.keys), path: path[...], ranges: ranges)
    }

    /// The text `name` matched, `nil` when the template has no such variable.
    func value(named name: String) -> String? {
        guard let index = names.prefix(ranges.count).lastIndex(of: name) else { return nil }
        return path.withUTF8Bytes { String(decoding: UnsafeBufferPointer(rebasing: $0[ranges[index]]), as: UTF8.self) }
    }

    /// Every variable's text by name.
    var dictionary: [String: String] {
        var variables: [String: String] = [:]
        for name in names.prefix(ranges.count) { variables[name] = value(named: name) }
        return variables
    }
}
