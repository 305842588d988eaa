public import FoundationEssentials

/// One node a Codable decoder reads from: a ``Value`` for ``ValueDecoder``, or a position in a
/// format's own parsed form for a format that decodes Codable types without building a tree
/// (JSON's tape).
///
/// Both kinds of decoder go through ``ValueDecoder/decodePrimitive(_:as:path:)`` and the
/// conversions next to it, so strings, numbers, dates, data and URLs decode by one set of rules
/// whichever path a body takes.
@usableFromInline package protocol CodableNode {
    /// The node as a value. Scalars are themselves; a decoder that has no tree may give an
    /// array or object as an empty one, since only its kind is read.
    var scalar: Value { get }

    /// The elements of this array node, each converted by `convert` with its own coding path
    /// (the array's path and the index); a type mismatch if this node is not an array.
    func mapElements<Element>(path: () -> [any CodingKey],
                              _ convert: (Value, () -> [any CodingKey]) throws -> Element) throws -> [Element]

    /// `Date`'s own `Decodable` form of this node (``ValueDecoder/DateDecodingStrategy/deferredToDate``).
    func decodeDeferredDate() throws -> Date
}

extension ValueDecoder {
    /// Metatypes compared against on every nested value, looked up once (a generic type's
    /// metadata is otherwise fetched from the runtime's cache at each comparison).
    @usableFromInline static let byteArrayType = ObjectIdentifier([UInt8].self)
    @usableFromInline static let doubleArrayType = ObjectIdentifier([Double].self)
    @usableFromInline static let floatArrayType = ObjectIdentifier([Float].self)
    @usableFromInline static let intArrayType = ObjectIdentifier([Int].self)
    @usableFromInline static let int64ArrayType = ObjectIdentifier([Int64].self)
    @usableFromInline static let stringArrayType = ObjectIdentifier([String].self)
    @usableFromInline static let boolArrayType = ObjectIdentifier([Bool].self)

    /// Whether `T` may be one of the types ``decodePrimitive(_:as:path:)`` decodes: a cheap
    /// test that lets callers skip it (and the `Optional<T>` it returns, whose metadata a
    /// generic caller looks up at run time) for the caller's own structs.
    @inlinable @inline(__always)
    package static func mayDecodePrimitive<T>(_ type: T.Type) -> Bool {
        if MemoryLayout<T>.size == MemoryLayout<Int>.size { return true }  // numbers, Date, arrays
        let requested = ObjectIdentifier(T.self)
        return requested == ObjectIdentifier(String.self) || requested == ObjectIdentifier(Bool.self)
            || requested == ObjectIdentifier(Data.self) || requested == ObjectIdentifier(URL.self)
            || requested == ObjectIdentifier(Decimal.self)
    }

    /// Decodes the types that need no `init(from:)` call: strings, numbers, Booleans, the
    /// Foundation types whose `Codable` form differs from what a value tree holds, and arrays of
    /// numbers, strings and Booleans (the standard library's generic `Array.init(from:)` looks
    /// up type metadata for every array it decodes). `nil` for any other type.
    @inlinable @inline(__always)
    package func decodePrimitive<T: Decodable, Node: CodableNode>(
        _ node: Node, as type: T.Type, path: () -> [any CodingKey]
    ) throws -> T? {
        let requested = ObjectIdentifier(T.self)
        if requested == ObjectIdentifier(String.self) { return (try string(node.scalar, path: path()) as! T) }
        if requested == ObjectIdentifier(Int.self) { return (try integer(node.scalar, as: Int.self, path: path) as! T) }
        if requested == ObjectIdentifier(Double.self) { return (try double(node.scalar, path: path) as! T) }
        if requested == ObjectIdentifier(Bool.self) { return (try bool(node.scalar, path: path()) as! T) }
        if requested == ObjectIdentifier(Date.self) {
            return (try date(node.scalar, path: path, deferred: node.decodeDeferredDate) as! T)
        }
        if requested == ObjectIdentifier(Data.self) {
            return try bytes(node.scalar, path: path).map { (Data($0) as! T) }
        }
        if requested == ObjectIdentifier(URL.self) { return (try url(node.scalar, path: path()) as! T) }
        if requested == ObjectIdentifier(Int64.self) {
            return (try integer(node.scalar, as: Int64.self, path: path) as! T)
        }
        if requested == ObjectIdentifier(Decimal.self) { return (try decimal(node.scalar, path: path) as! T) }
        // Only arrays remain, and every array is one reference wide: other types (most often
        // the caller's own structs) skip the comparisons below.
        guard MemoryLayout<T>.size == MemoryLayout<[Int]>.size else { return nil }
        if requested == Self.byteArrayType { return try bytes(node.scalar, path: path).map { ($0 as! T) } }
        if requested == Self.doubleArrayType {
            return (try node.mapElements(path: path) { element, path in try double(element, path: path) } as! T)
        }
        if requested == Self.stringArrayType {
            return (try node.mapElements(path: path) { element, path in try string(element, path: path()) } as! T)
        }
        if requested == Self.intArrayType {
            let elements = try node.mapElements(path: path) { element, path in
                try integer(element, as: Int.self, path: path)
            }
            return (elements as! T)
        }
        if requested == Self.int64ArrayType {
            let elements = try node.mapElements(path: path) { element, path in
                try integer(element, as: Int64.self, path: path)
            }
            return (elements as! T)
        }
        if requested == Self.floatArrayType {
            return (try node.mapElements(path: path) { element, path in try float(element, path: path) } as! T)
        }
        if requested == Self.boolArrayType {
            return (try node.mapElements(path: path) { element, path in try bool(element, path: path()) } as! T)
        }
        return nil
    }

    /// A `Decoder` over `value` at `codingPath`, for a direct decoder that needs one for a
    /// value it has no node for (a missing member's `superDecoder`).
    package func decoder(for value: Value, codingPath: [any CodingKey]) -> any Decoder {
        ValueDecoderImplementation(value: value, codingPath: codingPath, options: self)
    }

    // MARK: Conversions

    /// The innermost value of a ``Value/tagged(_:_:)`` chain.
    @usableFromInline package func unwrapTagged(_ value: Value) -> Value {
        var value = value
        while case .tagged(_, let inner) = value { value = inner }
        return value
    }

    /// `valueNotFound` for `null`, `typeMismatch` naming the value's kind otherwise.
    @usableFromInline package func mismatch(_ type: Any.Type, _ value: Value, path: [any CodingKey]) -> DecodingError {
        if case .null = value {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "Expected \(type) but found null."))
        }
        return .typeMismatch(
            type, .init(codingPath: path, debugDescription: "Expected \(type) but found \(value.kindName)."))
    }

    @usableFromInline package func string(_ value: Value, path: @autoclosure () -> [any CodingKey]) throws -> String {
        switch value {
        case .string(let s): return s
        case .tagged: return try string(unwrapTagged(value), path: path())
        default: throw mismatch(String.self, value, path: path())
        }
    }

    @usableFromInline package func bool(_ value: Value, path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        switch value {
        case .bool(let b): return b
        case .string(let text) where convertsTextScalars:
            switch TextScalar.trimmed(text) {
            case "true", "1": return true
            case "false", "0": return false
            default: throw TextScalar.mismatch(Bool.self, text, path: path())
            }
        case .tagged: return try bool(unwrapTagged(value), path: path())
        default: throw mismatch(Bool.self, value, path: path())
        }
    }

    /// An integer of type `T` from an integer, an integral float or number text that fits `T`.
    @inlinable @inline(__always)
    package func integer<T: FixedWidthInteger>(
        _ value: Value, as type: T.Type, path: () -> [any CodingKey]
    ) throws -> T {
        if case .integer(let i) = value, let result = T(exactly: i) { return result }
        return try integerSlowPath(value, as: T.self, path: path)
    }

    @usableFromInline
    func integerSlowPath<T: FixedWidthInteger>(
        _ value: Value, as type: T.Type, path: () -> [any CodingKey]
    ) throws -> T {
        switch value {
        case .integer(let i):
            if let result = T(exactly: i) { return result }
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(), debugDescription: "Number \(i) does not fit in \(T.self)."))
        case .number(let text):
            if let result = T(text) { return result }
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(), debugDescription: "Number \(text) does not fit in \(T.self)."))
        case .float(let d):
            if let result = T(exactly: d) { return result }
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(), debugDescription: "Number \(d) is not an integer that fits in \(T.self)."))
        case .string(let text) where convertsTextScalars:
            let trimmed = TextScalar.trimmed(text)
            if let result = T(trimmed) { return result }
            if TextScalar.isInteger(trimmed) {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: path(),
                        debugDescription: "Number \(trimmed) does not fit in \(T.self)."))
            }
            throw TextScalar.mismatch(T.self, text, path: path())
        case .tagged:
            return try integer(unwrapTagged(value), as: T.self, path: path)
        default:
            throw mismatch(T.self, value, path: path())
        }
    }

    @usableFromInline package func double(_ value: Value, path: () -> [any CodingKey]) throws -> Double {
        switch value {
        case .float(let d): return d
        case .integer(let i): return Double(i)
        case .number(let text):
            if let d = Double(text), d.isFinite { return d }
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(), debugDescription: "Number \(text) does not fit in Double."))
        case .string(let text) where convertsTextScalars:
            let trimmed = TextScalar.trimmed(text)
            if TextScalar.isNumber(trimmed), let d = Double(trimmed), d.isFinite { return d }
            throw TextScalar.mismatch(Double.self, text, path: path())
        case .tagged: return try double(unwrapTagged(value), path: path)
        default: throw mismatch(Double.self, value, path: path())
        }
    }

    @usableFromInline package func float(_ value: Value, path: () -> [any CodingKey]) throws -> Float {
        let d = try double(value, path: path)
        let f = Float(d)
        if f.isFinite || !d.isFinite { return f }
        throw DecodingError.dataCorrupted(
            .init(codingPath: path(), debugDescription: "Number \(d) does not fit in Float."))
    }

    /// A `Decimal` from an integer, a float (by its shortest decimal text), number text or a string
    /// holding a number; the digits are kept exactly as written.
    @usableFromInline package func decimal(_ value: Value, path: () -> [any CodingKey]) throws -> Decimal {
        let text: String
        switch unwrapTagged(value) {
        case .integer(let i): return Decimal(i)
        case .float(let d) where d.isFinite: text = "\(d)"
        case .number(let number): text = number
        case .string(let string) where convertsTextScalars:
            guard TextScalar.isNumber(TextScalar.trimmed(string)) else {
                throw TextScalar.mismatch(Decimal.self, string, path: path())
            }
            text = String(TextScalar.trimmed(string))
        default: throw mismatch(Decimal.self, unwrapTagged(value), path: path())
        }
        if let decimal = Decimal(string: text), !decimal.isNaN { return decimal }
        throw DecodingError.dataCorrupted(
            .init(codingPath: path(), debugDescription: "Number \(text) does not fit in Decimal."))
    }

    /// A date from ``Value/date(_:)``, or by ``dateDecodingStrategy``; `deferred` runs `Date`'s
    /// own `init(from:)` on the node.
    @usableFromInline package func date(
        _ value: Value, path: () -> [any CodingKey], deferred: () throws -> Date
    ) throws -> Date {
        let value = unwrapTagged(value)
        if case .date(let d) = value { return d }
        switch dateDecodingStrategy {
        case .iso8601:
            let text = try string(value, path: path())
            if let date = ISO8601Text.date(from: text) { return date }
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(), debugDescription: "Expected an ISO 8601 date but found '\(text.prefix(40))'.")
            )
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try double(value, path: path))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try double(value, path: path) / 1000)
        case .deferredToDate:
            return try deferred()
        }
    }

    /// Bytes from ``Value/bytes(_:)`` or a base64 string; `nil` for an array, which then
    /// decodes element by element.
    @usableFromInline package func bytes(_ value: Value, path: () -> [any CodingKey]) throws -> [UInt8]? {
        switch unwrapTagged(value) {
        case .bytes(let b): return b
        case .string(let text):
            if let b = Base64Text.bytes(from: text) { return b }
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(), debugDescription: "Expected base64 data but found '\(text.prefix(40))'."))
        case .array: return nil
        default: throw mismatch(Data.self, value, path: path())
        }
    }

    @usableFromInline package func url(_ value: Value, path: @autoclosure () -> [any CodingKey]) throws -> URL {
        let text = try string(value, path: path())
        if let url = URL(string: text) { return url }
        throw DecodingError.dataCorrupted(
            .init(codingPath: path(), debugDescription: "Invalid URL '\(text.prefix(80))'."))
    }
}
