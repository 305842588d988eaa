/// Path templates in a segment trie, walked over a request path's UTF-8 bytes: a lookup visits one
/// node per path segment, trying literal children before mixed templates before whole-segment
/// parameters, so the most specific template wins (`/books/mine` before `/books/{id}`).
///
/// Segments are compared by their bytes as written (nothing is percent-decoded: `/b%6Foks` is not
/// `/books`, RFC 3986's simple string comparison), empty segments are skipped (`/books/` is
/// `/books`), and what a parameter matched is kept as a byte range of the path, not copied.
struct OperationRouter: Sendable {
    struct Node: Sendable {
        var literals = LiteralChildren()
        var templates: [(pattern: PathSegmentPattern, node: Int)] = []
        var parameter: Int?
        /// Operation indices by method, at the node a template ends (a handful: searched in order).
        var operations: [(method: String, operation: Int)] = []
        /// The template ending here and its parameter names in capture order.
        var template: String?
        var names: [String] = []
    }

    /// A lookup's result.
    struct Found {
        var template: String
        var operations: [(method: String, operation: Int)]
        /// The template's parameter names, and the byte range of the path each one matched, in order.
        var names: [String]
        var captures: [Range<Int>]
    }

    var nodes: [Node] = [Node()]

    /// The segments of a path (empty segments dropped, so `/books/` is `/books`), split at each
    /// `/`: for templates and server URLs, read once when the document loads.
    static func segments(of path: some StringProtocol) -> [Substring] {
        Substring(path).utf8.split(separator: UInt8(ascii: "/")).map { Substring($0) }
    }

    /// The byte range of the first non-empty segment of `path` at or after `offset`; `nil` when
    /// only slashes are left.
    static func segment(in path: UnsafeBufferPointer<UInt8>, from offset: Int) -> Range<Int>? {
        var start = offset
        while start < path.count && path[start] == UInt8(ascii: "/") { start &+= 1 }
        guard start < path.count else { return nil }
        var end = start &+ 1
        while end < path.count && path[end] != UInt8(ascii: "/") { end &+= 1 }
        return start..<end
    }

    /// Adds one operation of `template`.
    mutating func add(template: String, method: String, operation: Int, file: String) throws(OpenAPILoadError) {
        var node = 0
        var names: [String] = []
        for segment in Self.segments(of: template) {
            guard let pattern = PathSegmentPattern(template: segment) else {
                throw OpenAPILoadError(.invalidDocument, file: file, pointer: "/paths",
                                       message: "the path template \(template) has unpaired braces")
            }
            names += pattern.parameterNames
            node = child(of: node, for: pattern)
        }
        let declared = nodes[node].operations.contains { $0.method == method }
        if let existing = nodes[node].template, existing != template, declared {
            throw OpenAPILoadError(.invalidDocument, file: file, pointer: "/paths",
                                   message: "\(method) \(template) and \(existing) are the same template")
        }
        nodes[node].template = nodes[node].template ?? template
        if nodes[node].names.isEmpty { nodes[node].names = names }
        if !declared { nodes[node].operations.append((method, operation)) }
    }

    private mutating func child(of node: Int, for pattern: PathSegmentPattern) -> Int {
        switch pattern {
        case .literal(let text):
            if let existing = nodes[node].literals.child(Array(text.utf8)) { return existing }
            nodes.append(Node())
            nodes[node].literals.add(Array(text.utf8), node: nodes.count - 1)
        case .parameter:
            if let existing = nodes[node].parameter { return existing }
            nodes.append(Node())
            nodes[node].parameter = nodes.count - 1
        case .template:
            if let existing = nodes[node].templates.first(where: { $0.pattern.shape == pattern.shape }) {
                return existing.node
            }
            nodes.append(Node())
            nodes[node].templates.append((pattern, nodes.count - 1))
        }
        return nodes.count - 1
    }

    /// The template the segments of `path` from `offset` on match, most specific first; `nil`
    /// when none does.
    func lookup(_ path: UnsafeBufferPointer<UInt8>, from offset: Int) -> Found? {
        var captures: [Range<Int>] = []
        guard let end = walk(0, path, offset, &captures) else { return nil }
        return Found(template: nodes[end].template!, operations: nodes[end].operations, names: nodes[end].names,
                     captures: captures)
    }

    private func walk(_ index: Int, _ path: UnsafeBufferPointer<UInt8>, _ offset: Int,
                      _ captures: inout [Range<Int>]) -> Int? {
        // The node's fields are read in place: copying a whole node would retain each of them.
        guard let segment = Self.segment(in: path, from: offset) else {
            return nodes[index].template == nil ? nil : index
        }
        let rest = segment.upperBound
        if let next = nodes[index].literals.child(UnsafeBufferPointer(rebasing: path[segment])),
           let end = walk(next, path, rest, &captures) {
            return end
        }
        for (pattern, next) in nodes[index].templates {
            let mark = captures.count
            if pattern.capture(path, segment, into: &captures), let end = walk(next, path, rest, &captures) {
                return end
            }
            captures.removeSubrange(mark...)
        }
        if let next = nodes[index].parameter {
            captures.append(segment)
            if let end = walk(next, path, rest, &captures) { return end }
            captures.removeLast()
        }
        return nil
    }
}

/// A node's literal children, found by a segment's bytes without making a string of them: an
/// open-addressing table (a power of two, at most half full) of child entries, probed linearly
/// from an FNV-1a hash of the bytes, so a node with a thousand children still takes one probe
/// sequence.
struct LiteralChildren: Sendable {
    private var keys: [[UInt8]] = []
    private var nodes: [Int] = []
    /// Indices into `keys`, -1 for an empty slot.
    private var slots: [Int] = []

    /// The child node whose segment is `segment`'s bytes.
    func child(_ segment: some Collection<UInt8>) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count &- 1
        var slot = Self.hash(segment) & mask
        while true {
            let entry = slots[slot]
            if entry < 0 { return nil }
            if keys[entry].count == segment.count && keys[entry].elementsEqual(segment) { return nodes[entry] }
            slot = (slot &+ 1) & mask
        }
    }

    /// Adds a child that is not there yet.
    mutating func add(_ key: [UInt8], node: Int) {
        keys.append(key)
        nodes.append(node)
        if keys.count * 2 > slots.count {
            slots = Array(repeating: -1, count: max(8, slots.count * 2))
            for entry in keys.indices { place(entry) }
        } else {
            place(keys.count - 1)
        }
    }

    private mutating func place(_ entry: Int) {
        let mask = slots.count - 1
        var slot = Self.hash(keys[entry]) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    private static func hash(_ bytes: some Collection<UInt8>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}
