/// Decodes a URL query or an `application/x-www-form-urlencoded` body back into a ``Value``
/// object — what a server needs to read what ``QueryEncoder`` (or a browser) wrote.
///
/// Keys are read with the same nesting rule the encoder writes: with ``QueryEncoder/Nesting/brackets``
/// `a[b][]=1&a[b][]=2&c[0]=x` gives `{"a": {"b": ["1", "2"]}, "c": ["x"]}`; with
/// ``QueryEncoder/Nesting/dotted`` `a.b=1` gives `{"a": {"b": "1"}}`. A key given more than
/// once becomes an array (`a=1&a=2` gives `{"a": ["1", "2"]}`), numeric indices become an array
/// ordered by index, and with ``splitsCommas`` a value `1,2` becomes `["1", "2"]`.
///
/// Values stay strings (a form carries no types); a bare key (`a`, no `=`) is ``Value/null``,
/// `a=` the empty string. Members keep their first-seen order. `+` is a space, `%XX` a byte,
/// and text is UTF-8 (invalid sequences become U+FFFD).
///
/// Bounds: ``limits`` ``DecodingLimits/maxBodyBytes`` (the input length),
/// ``DecodingLimits/maxNodes`` (pairs plus key segments) and ``DecodingLimits/maxDepth``
/// (segments in one key); exceeding one throws ``FormatError/Code/limitExceeded``. A key that
/// uses a name both as a scalar and as a container (`a=1&a[b]=2`) throws
/// ``FormatError/Code/malformed``.
public struct FormDecoder: Sendable {
    /// How nested keys are read. Default ``QueryEncoder/Nesting/brackets``.
    public var nesting: QueryEncoder.Nesting
    /// Whether a value containing a comma is split into an array. Default `false`.
    public var splitsCommas: Bool
    /// Whether `+` means a space. Default `true` (forms and most servers).
    public var plusAsSpace: Bool
    /// Size, pair-count and depth bounds. Default: ``DecodingLimits/standard`` with depth 32.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(nesting: QueryEncoder.Nesting = .brackets, splitsCommas: Bool = false, plusAsSpace: Bool = true,
                limits: DecodingLimits = DecodingLimits(maxDepth: 32)) {
        self.nesting = nesting
        self.splitsCommas = splitsCommas
        self.plusAsSpace = plusAsSpace
        self.limits = limits
    }

    static let formatName = "form"

    /// Decodes a query string (with or without a leading `?`).
    public func decode(_ query: String) throws -> Value {
        try decode(Array(query.utf8))
    }

    /// Decodes form bytes into an object.
    ///
    /// - Throws: ``FormatError`` with ``FormatError/Code/limitExceeded`` or
    ///   ``FormatError/Code/malformed``.
    public func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws -> Value where Bytes.Index == Int {
        try limits.checkBodySize(bytes.count, format: Self.formatName)
        let root = Node.object()
        var nodes = 0
        var start = bytes.startIndex
        if start < bytes.endIndex, bytes[start] == UInt8(ascii: "?") { start += 1 }
        while start < bytes.endIndex {
            var end = start
            while end < bytes.endIndex, bytes[end] != UInt8(ascii: "&") { end += 1 }
            defer { start = end + 1 }
            if end == start { continue }
            var equals = start
            while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
            let name = PercentEscaping.unescape(bytes[start..<equals], plusAsSpace: plusAsSpace)
            let value: Value
            if equals == end {
                value = .null
            } else {
                let text = PercentEscaping.unescape(bytes[(equals + 1)..<end], plusAsSpace: plusAsSpace)
                if splitsCommas, text.utf8.contains(UInt8(ascii: ",")) {
                    value = .array(
                        text.split(separator: ",", omittingEmptySubsequences: false).map { .string(String($0)) })
                } else {
                    value = .string(text)
                }
            }
            let path = segments(of: name)
            nodes += path.count + 1
            if nodes > limits.maxNodes {
                throw FormatError.limitExceeded(
                    format: Self.formatName, limit: "maxNodes", maximum: limits.maxNodes, actual: nodes)
            }
            if path.count > limits.maxDepth {
                throw FormatError.limitExceeded(
                    format: Self.formatName, limit: "maxDepth", maximum: limits.maxDepth, actual: path.count)
            }
            try root.insert(value, at: path[...], fullKey: name)
        }
        return root.value
    }

    /// One key segment: a name, an explicit index (digits only: `+1`, `-1` or an index past
    /// `Int.max` stay names), or `[]` (append).
    enum Segment: Equatable {
        case name(String)
        case index(Int)
        case append
    }

    func segments(of key: String) -> [Segment] {
        switch nesting {
        case .dotted:
            return key.split(separator: ".", omittingEmptySubsequences: false).enumerated().map { offset, part in
                if offset > 0, let index = CheckedArithmetic.nonNegativeDecimal(part) { return .index(index) }
                return .name(String(part))
            }
        case .brackets:
            // `a[b][]`: the head up to the first `[`, then each `[…]`; anything that does not
            // follow the pattern stays part of the name (PHP and Rails do the same).
            guard let open = key.firstIndex(of: "["), open != key.startIndex, key.hasSuffix("]") else {
                return [.name(key)]
            }
            var result: [Segment] = [.name(String(key[..<open]))]
            var rest = key[open...]
            while rest.first == "[" {
                guard let close = rest.firstIndex(of: "]") else { return [.name(key)] }
                let inner = rest[rest.index(after: rest.startIndex)..<close]
                if inner.isEmpty {
                    result.append(.append)
                } else if let index = CheckedArithmetic.nonNegativeDecimal(inner) {
                    result.append(.index(index))
                } else {
                    result.append(.name(String(inner)))
                }
                rest = rest[rest.index(after: close)...]
            }
            return rest.isEmpty ? result : [.name(key)]
        }
    }

    /// A mutable tree built while reading; converted to a ``Value`` at the end.
    ///
    /// Each node keeps its children in its own stored properties and changes them in place, so
    /// adding a pair costs the length of its key, never a copy of the members already read
    /// (an enum payload taken out, changed and put back would copy the whole collection each time).
    final class Node {
        enum Kind {
            case leaf
            case repeated                         // a key given more than once, or `[]` appends
            case object
            case indexed
        }
        private(set) var kind: Kind
        /// The value of a leaf.
        private var leafValue: Value = .null
        /// The elements of a repeated node.
        private var elements: [Node] = []
        /// The members of an object: names in first-seen order, and each name's node.
        private var keys: [String] = []
        private var children: [String: Node] = [:]
        /// The elements of an indexed node, by index.
        private var indexed: [Int: Node] = [:]

        private init(_ kind: Kind) { self.kind = kind }

        static func leaf(_ value: Value) -> Node {
            let node = Node(.leaf)
            node.leafValue = value
            return node
        }

        static func object() -> Node { Node(.object) }

        static func container(for segment: Segment) -> Node {
            switch segment {
            case .name: Node(.object)
            case .index: Node(.indexed)
            case .append: Node(.repeated)
            }
        }

        func insert(_ value: Value, at path: ArraySlice<Segment>, fullKey: String) throws {
            guard let first = path.first else { return }
            let rest = path.dropFirst()
            guard kind == .object, case .name(let name) = first else { throw Self.misfit(fullKey) }
            if let child = children[name] {
                if rest.isEmpty {
                    try child.addRepeated(value, fullKey: fullKey)
                } else {
                    try child.descend(value, at: rest, fullKey: fullKey)
                }
            } else {
                let child = rest.isEmpty ? Node.leaf(value) : Node.container(for: rest.first!)
                keys.append(name)
                children[name] = child
                if !rest.isEmpty { try child.descend(value, at: rest, fullKey: fullKey) }
            }
        }

        /// Continues a path inside this container.
        func descend(_ value: Value, at path: ArraySlice<Segment>, fullKey: String) throws {
            let first = path.first!
            let rest = path.dropFirst()
            switch (kind, first) {
            case (.object, .name):
                try insert(value, at: path, fullKey: fullKey)
            case (.repeated, .append):
                if rest.isEmpty {
                    elements.append(Node.leaf(value))
                } else if let last = elements.last, last.kind == .object, case .name(let name)? = rest.first,
                          !last.hasKey(name) {
                    // `a[][x]=1&a[][y]=2` fills one element until a key repeats (Rails' rule).
                    try last.descend(value, at: rest, fullKey: fullKey)
                } else {
                    let element = Node.container(for: rest.first!)
                    try element.descend(value, at: rest, fullKey: fullKey)
                    elements.append(element)
                }
            case (.indexed, .index(let index)):
                if let child = indexed[index] {
                    if rest.isEmpty {
                        try child.addRepeated(value, fullKey: fullKey)
                    } else {
                        try child.descend(value, at: rest, fullKey: fullKey)
                    }
                } else {
                    let child = rest.isEmpty ? Node.leaf(value) : Node.container(for: rest.first!)
                    if !rest.isEmpty { try child.descend(value, at: rest, fullKey: fullKey) }
                    indexed[index] = child
                }
            default:
                throw Self.misfit(fullKey)
            }
        }

        /// The same key again: a leaf becomes a list of values.
        func addRepeated(_ value: Value, fullKey: String) throws {
            switch kind {
            case .leaf:
                elements = [Node.leaf(leafValue), Node.leaf(value)]
                leafValue = .null
                kind = .repeated
            case .repeated:
                elements.append(Node.leaf(value))
            default:
                throw FormatError(
                    .malformed, format: FormDecoder.formatName, "key '\(fullKey)' names a container and a value")
            }
        }

        func hasKey(_ name: String) -> Bool {
            kind == .object && children[name] != nil
        }

        var value: Value {
            switch kind {
            case .leaf: leafValue
            case .repeated: .array(elements.map(\.value))
            case .object: .object(Value.Object(keys.map { .init(key: $0, value: children[$0]!.value) }))
            case .indexed: .array(indexed.keys.sorted().map { indexed[$0]!.value })
            }
        }

        private static func misfit(_ fullKey: String) -> FormatError {
            FormatError(.malformed, format: FormDecoder.formatName, "key '\(fullKey)' does not fit the keys before it")
        }
    }
}
