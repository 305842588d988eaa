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

    /// Whether `segment` matches; captured values are appended to `captures` in order.
    func capture(_ segment: Substring, into captures: inout [String]) -> Bool {
        switch self {
        case .literal(let text): return segment == text
        case .parameter: captures.append(String(segment)); return !segment.isEmpty
        case .template(let pieces):
            var found: [String] = []
            guard Self.match(pieces[...], segment, &found) else { return false }
            captures.append(contentsOf: found)
            return true
        }
    }

    /// Whether `segment` matches, with parameters stored by name.
    func matches(_ segment: Substring, into parameters: inout [String: String]) -> Bool {
        var captures: [String] = []
        guard capture(segment, into: &captures) else { return false }
        for (name, value) in zip(parameterNames, captures) { parameters[name] = value }
        return true
    }

    /// Matches pieces left to right; a parameter takes the shortest non-empty text before the
    /// next literal (or the rest of the segment when it is last).
    private static func match(_ pieces: ArraySlice<Piece>, _ text: Substring, _ found: inout [String]) -> Bool {
        guard let first = pieces.first else { return text.isEmpty }
        switch first {
        case .literal(let literal):
            guard text.hasPrefix(literal) else { return false }
            return match(pieces.dropFirst(), text.dropFirst(literal.count), &found)
        case .parameter:
            let rest = pieces.dropFirst()
            guard case .literal(let next)? = rest.first else {
                guard rest.isEmpty, !text.isEmpty else { return false }
                found.append(String(text))
                return true
            }
            // The parameter takes at least one character.
            var searchStart = text.isEmpty ? text.endIndex : text.index(after: text.startIndex)
            while searchStart < text.endIndex, let range = text[searchStart...].firstRange(of: next) {
                var attempt = found
                attempt.append(String(text[..<range.lowerBound]))
                if match(rest, text[range.lowerBound...], &attempt) {
                    found = attempt
                    return true
                }
                searchStart = text.index(after: range.lowerBound)
            }
            return false
        }
    }
}
