/// One segment of a path template or server base path: literal text, a whole-segment parameter
/// (`{id}`), or literal text mixed with parameters (`{name}.{ext}`, `v{version}`).
enum PathSegmentPattern: Sendable, Hashable {
    case literal(String)
    case parameter(String)
    case template([Piece])

    enum Piece: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    /// Reads one template segment; `nil` when its braces do not pair up.
    init?(template segment: Substring) {
        var pieces: [Piece] = []
        var rest = segment[...]
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { pieces.append(.literal(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else { return nil }
            let name = rest[rest.index(after: open)..<close]
            guard !name.isEmpty, !name.contains("{") else { return nil }
            pieces.append(.parameter(String(name)))
            rest = rest[rest.index(after: close)...]
        }
        if rest.contains("}") { return nil }
        if !rest.isEmpty { pieces.append(.literal(String(rest))) }
        switch pieces.count {
        case 0: self = .literal("")
        case 1:
            switch pieces[0] {
            case .literal(let text): self = .literal(text)
            case .parameter(let name): self = .parameter(name)
            }
        default: self = .template(pieces)
        }
    }

    /// The parameter names, in order.
    var parameterNames: [String] {
        switch self {
        case .literal: []
        case .parameter(let name): [name]
        case .template(let pieces): pieces.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
        }
    }

    /// The shape with names removed (`{}.{}`), so templates differing only in names share a node.
    var shape: String {
        guard case .template(let pieces) = self else { return "" }
        return pieces.map { if case .literal(let text) = $0 { text } else { "{}" } }.joined()
    }

    /// Whether the segment at `range` of `path` (UTF-8 bytes) matches; the byte ranges of the
    /// captured values are appended to `captures` in order.
    func capture(_ path: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into captures: inout [Range<Int>]) -> Bool {
        switch self {
        case .literal(let text): return Self.equals(text, path, range)
        case .parameter: captures.append(range); return !range.isEmpty
        case .template(let pieces):
            var found: [Range<Int>] = []
            guard Self.match(pieces[...], path, range, &found) else { return false }
            captures.append(contentsOf: found)
            return true
        }
    }

    /// Whether the segment at `range` of `path` matches, its captures dropped (a server's base path).
    func matches(_ path: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        if case .literal(let text) = self { return Self.equals(text, path, range) }
        var captures: [Range<Int>] = []
        return capture(path, range, into: &captures)
    }

    /// Whether `text`'s UTF-8 bytes are the bytes at `range` of `path`.
    private static func equals(_ text: String, _ path: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        text.utf8.count == range.count && text.utf8.elementsEqual(path[range])
    }

    /// Where `literal` ends when the bytes at `range` of `path` start with it, else `nil`.
    private static func end(of literal: String, atStartOf range: Range<Int>, in path: UnsafeBufferPointer<UInt8>)
        -> Int?
    {
        let count = literal.utf8.count
        guard count <= range.count, literal.utf8.elementsEqual(path[range.lowerBound..<(range.lowerBound + count)])
        else { return nil }
        return range.lowerBound + count
    }

    /// Matches pieces left to right over the bytes at `range` of `path`; a parameter takes the
    /// shortest non-empty text before the next literal (or the rest of the segment when it is last).
    private static func match(_ pieces: ArraySlice<Piece>, _ path: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                              _ found: inout [Range<Int>]) -> Bool {
        guard let first = pieces.first else { return range.isEmpty }
        switch first {
        case .literal(let literal):
            guard let end = end(of: literal, atStartOf: range, in: path) else { return false }
            return match(pieces.dropFirst(), path, end..<range.upperBound, &found)
        case .parameter:
            let rest = pieces.dropFirst()
            guard case .literal(let next)? = rest.first else {
                guard rest.isEmpty, !range.isEmpty else { return false }
                found.append(range)
                return true
            }
            // The parameter takes at least one byte; each place `next` starts is tried in turn.
            var start = range.lowerBound + 1
            while start < range.upperBound {
                if end(of: next, atStartOf: start..<range.upperBound, in: path) != nil {
                    var attempt = found
                    attempt.append(range.lowerBound..<start)
                    if match(rest, path, start..<range.upperBound, &attempt) {
                        found = attempt
                        return true
                    }
                }
                start += 1
            }
            return false
        }
    }
}
