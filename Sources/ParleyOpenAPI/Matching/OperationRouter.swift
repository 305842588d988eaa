/// Path templates in a segment trie: a lookup visits one node per path segment, trying literal
/// children before mixed templates before whole-segment parameters, so the most specific
/// template wins (`/books/mine` before `/books/{id}`).
struct OperationRouter: Sendable {
    struct Node: Sendable {
        /// Children by literal segment, keyed by Substring so a request's segment is looked up as it is.
        var literals: [Substring: Int] = [:]
        var templates: [(pattern: PathSegmentPattern, node: Int)] = []
        var parameter: Int?
        /// Operation indices by method, at the node a template ends.
        var operations: [String: Int] = [:]
        /// The template ending here and its parameter names in capture order.
        var template: String?
        var names: [String] = []
    }

    /// A lookup's result.
    struct Found {
        var template: String
        var operations: [String: Int]
        var parameters: [String: String]
    }

    var nodes: [Node] = [Node()]

    /// The segments of a path (empty segments dropped, so `/books/` is `/books`), split at each
    /// `/` byte: a path is URI text, so its bytes need no grapheme breaking.
    static func segments(of path: some StringProtocol) -> [Substring] {
        let text = Substring(path)
        let utf8 = text.utf8
        let bounds = text.withUTF8Bytes(Self.segmentBounds)
        var segments: [Substring] = []
        segments.reserveCapacity(bounds.count)
        for bound in bounds {
            let start = utf8.index(utf8.startIndex, offsetBy: bound.lowerBound)
            segments.append(Substring(utf8[start..<utf8.index(start, offsetBy: bound.count)]))
        }
        return segments
    }

    /// The byte ranges of a path's non-empty segments (room made for them first: growing the
    /// list one segment at a time reallocated it).
    private static func segmentBounds(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var bounds: [Range<Int>] = []
        bounds.reserveCapacity(bytes.count { $0 == UInt8(ascii: "/") } + 1)
        var start = 0
        for offset in 0...bytes.count where offset == bytes.count || bytes[offset] == UInt8(ascii: "/") {
            if start < offset { bounds.append(start..<offset) }
            start = offset + 1
        }
        return bounds
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
        if let existing = nodes[node].template, existing != template, nodes[node].operations[method] != nil {
            throw OpenAPILoadError(.invalidDocument, file: file, pointer: "/paths",
                                   message: "\(method) \(template) and \(existing) are the same template")
        }
        nodes[node].template = nodes[node].template ?? template
        if nodes[node].names.isEmpty { nodes[node].names = names }
        nodes[node].operations[method] = nodes[node].operations[method] ?? operation
    }

    private mutating func child(of node: Int, for pattern: PathSegmentPattern) -> Int {
        switch pattern {
        case .literal(let text):
            if let existing = nodes[node].literals[text[...]] { return existing }
            nodes.append(Node())
            nodes[node].literals[text[...]] = nodes.count - 1
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

    /// The template `segments` match, most specific first; `nil` when none does.
    func lookup(_ segments: ArraySlice<Substring>) -> Found? {
        var captures: [String] = []
        guard let end = walk(0, segments, &captures) else { return nil }
        let node = nodes[end]
        var parameters = [String: String](minimumCapacity: node.names.count)
        for (name, value) in zip(node.names, captures) { parameters[name] = value }
        return Found(template: node.template!, operations: node.operations, parameters: parameters)
    }

    private func walk(_ index: Int, _ segments: ArraySlice<Substring>, _ captures: inout [String]) -> Int? {
        // The node's fields are read in place: copying a whole node would retain each of them.
        guard let segment = segments.first else { return nodes[index].template == nil ? nil : index }
        let rest = segments.dropFirst()
        if let next = nodes[index].literals[segment], let end = walk(next, rest, &captures) { return end }
        for (pattern, next) in nodes[index].templates {
            let mark = captures.count
            if pattern.capture(segment, into: &captures), let end = walk(next, rest, &captures) { return end }
            captures.removeSubrange(mark...)
        }
        if let next = nodes[index].parameter, !segment.isEmpty {
            captures.append(String(segment))
            if let end = walk(next, rest, &captures) { return end }
            captures.removeLast()
        }
        return nil
    }
}
