import FoundationEssentials

/// Encodes parameters as a URL query or an `application/x-www-form-urlencoded` body, with
/// explicit strategies for everything servers disagree about.
///
/// Parameters are an object ``Value`` (or any `Encodable` that encodes to one). With the
/// default strategies, `["b": 2, "a": ["x": "1 2", "y": [true, nil]]]` encodes as:
///
/// ```text
/// a%5Bx%5D=1%202&a%5By%5D%5B%5D=true&a%5By%5D%5B%5D&b=2
/// ```
///
/// | strategy | options (default first) | `["a": ["b": 1, "c": [1, 2]]]` |
/// |---|---|---|
/// | ``Nesting`` | `.brackets`, `.dotted` | `a[b]=1` · `a.b=1` |
/// | ``ArrayEncoding`` | `.emptyBrackets`, `.indices`, | `a[c][]=1&a[c][]=2` · `a[c][0]=1&a[c][1]=2` · |
/// | | `.repeatedKeys`, `.comma` | `a[c]=1&a[c]=2` · `a[c]=1,2` |
/// | ``BoolEncoding`` | `.trueFalse`, `.oneZero` | `true` · `1` |
/// | ``NullEncoding`` | `.bareKey`, `.omitted` | `a` · (nothing) |
/// | ``DateEncoding`` | `.iso8601`, `.secondsSince1970` | `2001-01-01T00:00:00Z` · `978307200` |
/// | ``KeyOrder`` | `.sorted`, `.insertion` | keys sorted by UTF-8 bytes at every level · as given |
///
/// (brackets shown unescaped for reading; see ``PercentEscaping``). Bytes encode as base64,
/// exact-number text as itself, tagged values as their inner value, an empty array or object as
/// nothing. ``custom`` runs first for every leaf and container and may take over.
public struct QueryEncoder: Sendable {
    /// How a nested key is written.
    public enum Nesting: Sendable, Hashable {
        /// `a[b][c]=1` (Rails, PHP, qs).
        case brackets
        /// `a.b.c=1` (Spring, some Java servers).
        case dotted
    }

    /// How an array is written.
    public enum ArrayEncoding: Sendable, Hashable {
        /// `a[]=1&a[]=2` (Rails, PHP).
        case emptyBrackets
        /// `a[0]=1&a[1]=2` (dotted nesting writes `a.0=1`).
        case indices
        /// `a=1&a=2` (Go, Python, Java servlets).
        case repeatedKeys
        /// `a=1,2`: elements escaped, joined with a literal comma. Elements must be scalars.
        case comma
    }

    /// How a Boolean is written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `true` / `false`.
        case trueFalse
        /// `1` / `0`.
        case oneZero
    }

    /// How `null` is written.
    public enum NullEncoding: Sendable, Hashable {
        /// The key without `=`: `a&b=1`.
        case bareKey
        /// Left out.
        case omitted
    }

    /// How a date is written.
    public enum DateEncoding: Sendable, Hashable {
        /// RFC 3339 / ISO 8601 UTC, `2001-01-01T00:00:00Z` (milliseconds when the date has a fraction, `…00.500Z`).
        case iso8601
        /// Seconds since 1970 as a number (`978307200`, `978307200.5`).
        case secondsSince1970
    }

    /// The order members of an object are written in.
    public enum KeyOrder: Sendable, Hashable {
        /// Sorted by the keys' UTF-8 bytes at every level, so equal parameters always give the
        /// same query (signatures, cache keys). Members with equal keys keep their order.
        case sorted
        /// The order of the ``Value/Object``.
        case insertion
    }

    /// A hook that may encode a value itself: given the full (unescaped) key and the value,
    /// return the unescaped pairs to write (a `nil` pair value writes a bare key), or `nil` to
    /// let the encoder continue with its strategies.
    public typealias CustomEncoding = @Sendable (_ key: String, _ value: Value) throws -> [(String, String?)]?

    /// Nested keys. Default ``Nesting/brackets``.
    public var nesting: Nesting
    /// Arrays. Default ``ArrayEncoding/emptyBrackets``.
    public var arrays: ArrayEncoding
    /// Booleans. Default ``BoolEncoding/trueFalse``.
    public var bools: BoolEncoding
    /// `null`. Default ``NullEncoding/bareKey``.
    public var nulls: NullEncoding
    /// Dates. Default ``DateEncoding/iso8601``.
    public var dates: DateEncoding
    /// Member order. Default ``KeyOrder/sorted``.
    public var keyOrder: KeyOrder
    /// Escaping of keys and values. Default ``PercentEscaping/rfc3986`` (space as `%20`).
    public var escaping: PercentEscaping
    /// Runs before the strategies for every value; see ``CustomEncoding``.
    public var custom: CustomEncoding?

    /// Creates an encoder; every argument defaults to the first option of its strategy.
    public init(nesting: Nesting = .brackets, arrays: ArrayEncoding = .emptyBrackets, bools: BoolEncoding = .trueFalse,
                nulls: NullEncoding = .bareKey, dates: DateEncoding = .iso8601, keyOrder: KeyOrder = .sorted,
                escaping: PercentEscaping = .rfc3986, custom: CustomEncoding? = nil) {
        self.nesting = nesting
        self.arrays = arrays
        self.bools = bools
        self.nulls = nulls
        self.dates = dates
        self.keyOrder = keyOrder
        self.escaping = escaping
        self.custom = custom
    }

    /// The encoder for `application/x-www-form-urlencoded` bodies: the defaults with space as `+`.
    public static let form = QueryEncoder(escaping: .form)

    /// The name of the format in errors.
    static let formatName = "query"

    /// The escaped query (or form body) text for `parameters`, without a leading `?`.
    ///
    /// - Throws: ``FormatError`` with ``FormatError/Code/unsupportedValue`` when `parameters`
    ///   is not an object, a float is not finite, or a comma-joined array holds a container.
    public func encode(_ parameters: Value) throws -> String {
        String(decoding: try encodeBytes(parameters), as: UTF8.self)
    }

    /// Encodes an `Encodable` value (through ``ValueEncoder``, dates kept as dates).
    public func encode<T: Encodable>(_ parameters: T) throws -> String {
        try encode(try ValueEncoder().encode(parameters))
    }

    /// The escaped query (or form body) as UTF-8 bytes.
    public func encodeBytes(_ parameters: Value) throws -> [UInt8] {
        guard case .object(let object) = parameters else {
            throw FormatError(.unsupportedValue, format: Self.formatName,
                              "query parameters must be an object, not a \(parameters.kindName)")
        }
        var writer = Writer(encoder: self)
        var key: [UInt8] = []
        for member in ordered(object) {
            key.removeAll(keepingCapacity: true)
            escaping.escape(member.key, into: &key)
            try write(member.value, key: &key, rawKey: custom == nil ? nil : member.key, into: &writer)
        }
        return writer.out
    }

    /// The output and the escaped punctuation nested keys use.
    private struct Writer {
        var out: [UInt8] = []
        let open: [UInt8], close: [UInt8], dot: [UInt8], emptyBrackets: [UInt8]

        init(encoder: QueryEncoder) {
            out.reserveCapacity(256)
            open = Array(encoder.escaping.escape("[").utf8)
            close = Array(encoder.escaping.escape("]").utf8)
            dot = Array(encoder.escaping.escape(".").utf8)
            emptyBrackets = open + close
        }

        /// Starts a pair: `&` when not first, then the escaped key.
        mutating func begin(_ key: [UInt8]) {
            if !out.isEmpty { out.append(UInt8(ascii: "&")) }
            out.append(contentsOf: key)
        }
    }

    // `key` holds the escaped key so far; `rawKey` the unescaped one, kept only for the hook.
    private func write(_ value: Value, key: inout [UInt8], rawKey: String?, into writer: inout Writer) throws {
        if let custom, let rawKey, let pairs = try custom(rawKey, value) {
            for (name, text) in pairs {
                var escapedName: [UInt8] = []
                escaping.escape(name, into: &escapedName)
                writer.begin(escapedName)
                if let text {
                    writer.out.append(UInt8(ascii: "="))
                    escaping.escape(text, into: &writer.out)
                }
            }
            return
        }
        let mark = key.count
        defer { key.removeSubrange(mark...) }
        switch value {
        case .null:
            if nulls == .bareKey { writer.begin(key) }
        case .tagged(_, let inner):
            try write(inner, key: &key, rawKey: rawKey, into: &writer)
        case .object(let object):
            for member in ordered(object) {
                key.removeSubrange(mark...)
                key.append(contentsOf: nesting == .brackets ? writer.open : writer.dot)
                escaping.escape(member.key, into: &key)
                if nesting == .brackets { key.append(contentsOf: writer.close) }
                let child = rawKey.map { nesting == .brackets ? "\($0)[\(member.key)]" : "\($0).\(member.key)" }
                try write(member.value, key: &key, rawKey: child, into: &writer)
            }
        case .array(let elements):
            switch arrays {
            case .emptyBrackets, .repeatedKeys:
                if arrays == .emptyBrackets && nesting == .brackets { key.append(contentsOf: writer.emptyBrackets) }
                let child = rawKey.map { arrays == .emptyBrackets && nesting == .brackets ? $0 + "[]" : $0 }
                for element in elements { try write(element, key: &key, rawKey: child, into: &writer) }
            case .indices:
                for (index, element) in elements.enumerated() {
                    key.removeSubrange(mark...)
                    key.append(contentsOf: nesting == .brackets ? writer.open : writer.dot)
                    key.append(contentsOf: String(index).utf8)
                    if nesting == .brackets { key.append(contentsOf: writer.close) }
                    let child = rawKey.map { nesting == .brackets ? "\($0)[\(index)]" : "\($0).\(index)" }
                    try write(element, key: &key, rawKey: child, into: &writer)
                }
            case .comma:
                guard !elements.isEmpty else { return }
                writer.begin(key)
                writer.out.append(UInt8(ascii: "="))
                for (index, element) in elements.enumerated() {
                    guard let text = try scalarText(element) else {
                        throw FormatError(
                            .unsupportedValue, format: Self.formatName,
                            "'\(String(decoding: key, as: UTF8.self))': comma-joined arrays hold scalars only, not a "
                                + "\(element.kindName)"
                        )
                    }
                    if index > 0 { writer.out.append(UInt8(ascii: ",")) }
                    escaping.escape(text, into: &writer.out)
                }
            }
        default:
            guard let text = try scalarText(value) else { return }
            writer.begin(key)
            writer.out.append(UInt8(ascii: "="))
            escaping.escape(text, into: &writer.out)
        }
    }

    /// The unescaped text of a scalar, `nil` for containers (and for `null`, which the
    /// comma strategy writes as an empty element).
    private func scalarText(_ value: Value) throws -> String? {
        switch value {
        case .null: return ""
        case .bool(let b): return bools == .trueFalse ? (b ? "true" : "false") : (b ? "1" : "0")
        case .integer(let i): return String(i)
        case .float(let d):
            guard d.isFinite else {
                throw FormatError(.unsupportedValue, format: Self.formatName, "\(d) has no query representation")
            }
            return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .number(let text): return text
        case .string(let s): return s
        case .bytes(let b): return Base64Text.string(from: b)
        case .date(let date):
            switch dates {
            case .iso8601:
                guard let text = ISO8601Text.string(from: date) else {
                    throw FormatError(
                        .unsupportedValue, format: Self.formatName, ISO8601Text.noTimestampMessage(for: date))
                }
                return text
            case .secondsSince1970:
                let seconds = date.timeIntervalSince1970
                guard seconds.isFinite else {
                    throw FormatError(
                        .unsupportedValue, format: Self.formatName, "\(seconds) has no query representation")
                }
                return seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
            }
        case .tagged(_, let inner): return try scalarText(inner)
        case .array, .object: return nil
        }
    }

    private func ordered(_ object: Value.Object) -> [Value.Object.Member] {
        guard keyOrder == .sorted else { return object.members }
        // A stable sort by UTF-8 bytes, independent of locale and Unicode normalisation.
        return object.members.enumerated().sorted { lhs, rhs in
            if lhs.element.key == rhs.element.key { return lhs.offset < rhs.offset }
            return lhs.element.key.utf8.lexicographicallyPrecedes(rhs.element.key.utf8)
        }.map(\.element)
    }
}
