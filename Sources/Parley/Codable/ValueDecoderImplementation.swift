import FoundationEssentials

/// The `Decoder` behind `ValueDecoder`.
///
/// One instance decodes a whole tree: decoding a nested value swaps `value` and pushes its
/// key on `codingPath` for the duration, so nested objects cost no decoder allocation.
/// Containers remember how deep the path was when they were made (`pathCount`) and rebuild
/// their coding path from it only when asked, usually for an error.
final class ValueDecoderImplementation: Decoder, SingleValueDecodingContainer {
    var value: Value
    var codingPath: [any CodingKey]
    let options: ValueDecoder
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    init(value: Value, codingPath: [any CodingKey], options: ValueDecoder) {
        self.value = value
        self.codingPath = codingPath
        self.options = options
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let object = try objectValue(value, path: codingPath)
        return KeyedDecodingContainer(ValueKeyedDecodingContainer<Key>(
            decoder: self, object: object, pathCount: codingPath.count, nestedKeys: []))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let elements = try arrayValue(value, path: codingPath)
        return ValueUnkeyedDecodingContainer(decoder: self, elements: elements, pathCount: codingPath.count, nestedKeys: [])
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Nested values

    /// Decodes `value` as `T` at `codingPath[..<pathCount] + nestedKeys + [key]`.
    @inline(__always)
    func unwrap<T: Decodable>(_ value: Value, as type: T.Type, pathCount: Int, nestedKeys: [any CodingKey],
                              key: any CodingKey) throws -> T {
        if let primitive = try decodePrimitive(value, as: T.self, path: { self.path(pathCount, nestedKeys, key) }) {
            return primitive
        }
        guard codingPath.count == pathCount else {
            // A container used outside its parent's scope: decode with a decoder of its own.
            let child = ValueDecoderImplementation(value: value, codingPath: path(pathCount, nestedKeys, key), options: options)
            return try T(from: child)
        }
        let savedValue = self.value
        self.value = value
        if !nestedKeys.isEmpty { codingPath.append(contentsOf: nestedKeys) }
        codingPath.append(key)
        defer {
            self.value = savedValue
            codingPath.removeLast(nestedKeys.count + 1)
        }
        return try T(from: self)
    }

    /// Decodes the top-level value.
    func unwrap<T: Decodable>(_ value: Value, as type: T.Type) throws -> T {
        if let primitive = try decodePrimitive(value, as: T.self, path: { [] }) { return primitive }
        return try T(from: self)
    }

    func path(_ count: Int, _ nestedKeys: [any CodingKey], _ key: (any CodingKey)?) -> [any CodingKey] {
        var path = Array(codingPath.prefix(count)) + nestedKeys
        if let key { path.append(key) }
        return path
    }

    /// The types decoded without an `init(from:)` call: strings, numbers, Booleans, the
    /// Foundation types whose `Codable` form differs from what a value tree holds, and arrays of
    /// numbers, strings and Booleans (the standard library's generic `Array.init(from:)` looks
    /// up type metadata for every array it decodes).
    ///
    /// Metatypes compared against on every nested value are looked up once (a generic type's
    /// metadata is otherwise fetched from the runtime's cache at each comparison). Each branch
    /// has established that `T` is exactly the type it produces, so the result is reinterpreted
    /// with `unsafeBitCast` instead of a dynamic cast.
    static let byteArrayType = ObjectIdentifier([UInt8].self)
    static let doubleArrayType = ObjectIdentifier([Double].self)
    static let floatArrayType = ObjectIdentifier([Float].self)
    static let intArrayType = ObjectIdentifier([Int].self)
    static let int64ArrayType = ObjectIdentifier([Int64].self)
    static let stringArrayType = ObjectIdentifier([String].self)
    static let boolArrayType = ObjectIdentifier([Bool].self)

    @inline(__always)
    func decodePrimitive<T: Decodable>(_ value: Value, as type: T.Type, path: () -> [any CodingKey]) throws -> T? {
        let requested = ObjectIdentifier(T.self)
        if requested == ObjectIdentifier(String.self) { return unsafeBitCast(try string(value, path: path()), to: T.self) }
        if requested == ObjectIdentifier(Int.self) { return unsafeBitCast(try integer(value, as: Int.self, path: path), to: T.self) }
        if requested == ObjectIdentifier(Double.self) { return unsafeBitCast(try double(value, path: path), to: T.self) }
        if requested == ObjectIdentifier(Bool.self) { return unsafeBitCast(try bool(value, path: path()), to: T.self) }
        if requested == ObjectIdentifier(Date.self) { return unsafeBitCast(try date(value, path: path), to: T.self) }
        if requested == ObjectIdentifier(Data.self) { return try bytes(value, path: path).map { unsafeBitCast(Data($0), to: T.self) } }
        if requested == ObjectIdentifier(URL.self) { return unsafeBitCast(try url(value, path: path()), to: T.self) }
        if requested == ObjectIdentifier(Int64.self) { return unsafeBitCast(try integer(value, as: Int64.self, path: path), to: T.self) }
        if requested == Self.byteArrayType { return try bytes(value, path: path).map { unsafeBitCast($0, to: T.self) } }
        if requested == Self.doubleArrayType {
            return unsafeBitCast(try array(value, path: path) { element, path in try double(element, path: path) }, to: T.self)
        }
        if requested == Self.stringArrayType {
            return unsafeBitCast(try array(value, path: path) { element, path in try string(element, path: path()) }, to: T.self)
        }
        if requested == Self.intArrayType {
            return unsafeBitCast(try array(value, path: path) { element, path in try integer(element, as: Int.self, path: path) },
                                 to: T.self)
        }
        if requested == Self.int64ArrayType {
            return unsafeBitCast(try array(value, path: path) { element, path in try integer(element, as: Int64.self, path: path) },
                                 to: T.self)
        }
        if requested == Self.floatArrayType {
            return unsafeBitCast(try array(value, path: path) { element, path in try float(element, path: path) }, to: T.self)
        }
        if requested == Self.boolArrayType {
            return unsafeBitCast(try array(value, path: path) { element, path in try bool(element, path: path()) }, to: T.self)
        }
        return nil
    }

    /// The elements of an array value converted one by one; an element's path (for errors) is
    /// the array's path and its index.
    @inline(__always)
    func array<Element>(_ value: Value, path: () -> [any CodingKey],
                        _ convert: (Value, () -> [any CodingKey]) throws -> Element) throws -> [Element] {
        let elements = try arrayValue(value, path: path())
        return try withoutActuallyEscaping(path) { path in
            var result: [Element] = []
            result.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                result.append(try convert(element, { path() + [CodingIndexKey(intValue: index)] }))
            }
            return result
        }
    }

    // MARK: Conversions

    func unwrapTagged(_ value: Value) -> Value {
        var value = value
        while case .tagged(_, let inner) = value { value = inner }
        return value
    }

    func mismatch(_ type: Any.Type, _ value: Value, path: [any CodingKey]) -> DecodingError {
        if case .null = value {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "Expected \(type) but found null."))
        }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "Expected \(type) but found \(value.kindName)."))
    }

    func objectValue(_ value: Value, path: @autoclosure () -> [any CodingKey]) throws -> Value.Object {
        switch value {
        case .object(let object): return object
        case .tagged: return try objectValue(unwrapTagged(value), path: path())
        default: throw mismatch([String: Any].self, value, path: path())
        }
    }

    func arrayValue(_ value: Value, path: @autoclosure () -> [any CodingKey]) throws -> [Value] {
        switch value {
        case .array(let elements): return elements
        case .tagged: return try arrayValue(unwrapTagged(value), path: path())
        default: throw mismatch([Any].self, value, path: path())
        }
    }

    func string(_ value: Value, path: @autoclosure () -> [any CodingKey]) throws -> String {
        switch value {
        case .string(let s): return s
        case .tagged: return try string(unwrapTagged(value), path: path())
        default: throw mismatch(String.self, value, path: path())
        }
    }

    func bool(_ value: Value, path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        switch value {
        case .bool(let b): return b
        case .tagged: return try bool(unwrapTagged(value), path: path())
        default: throw mismatch(Bool.self, value, path: path())
        }
    }

    @inline(__always)
    func integer<T: FixedWidthInteger>(_ value: Value, as type: T.Type, path: () -> [any CodingKey]) throws -> T {
        switch value {
        case .integer(let i):
            if let result = T(exactly: i) { return result }
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Number \(i) does not fit in \(T.self)."))
        case .number(let text):
            if let result = T(text) { return result }
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Number \(text) does not fit in \(T.self)."))
        case .float(let d):
            if let result = T(exactly: d) { return result }
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Number \(d) is not an integer that fits in \(T.self)."))
        case .tagged:
            return try integer(unwrapTagged(value), as: T.self, path: path)
        default:
            throw mismatch(T.self, value, path: path())
        }
    }

    func double(_ value: Value, path: () -> [any CodingKey]) throws -> Double {
        switch value {
        case .float(let d): return d
        case .integer(let i): return Double(i)
        case .number(let text):
            if let d = Double(text), d.isFinite { return d }
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Number \(text) does not fit in Double."))
        case .tagged: return try double(unwrapTagged(value), path: path)
        default: throw mismatch(Double.self, value, path: path())
        }
    }

    func float(_ value: Value, path: () -> [any CodingKey]) throws -> Float {
        let d = try double(value, path: path)
        let f = Float(d)
        if f.isFinite || !d.isFinite { return f }
        throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Number \(d) does not fit in Float."))
    }

    func date(_ value: Value, path: () -> [any CodingKey]) throws -> Date {
        let value = unwrapTagged(value)
        if case .date(let d) = value { return d }
        switch options.dateDecodingStrategy {
        case .iso8601:
            let text = try string(value, path: path())
            if let date = ISO8601Text.date(from: text) { return date }
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Expected an ISO 8601 date but found '\(text.prefix(40))'."))
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try double(value, path: path))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try double(value, path: path) / 1000)
        case .deferredToDate:
            let saved = self.value
            self.value = value
            defer { self.value = saved }
            return try Date(from: self)
        }
    }

    /// Bytes from `Value/bytes(_:)` or a base64 string; `nil` for an array, which then
    /// decodes element by element.
    func bytes(_ value: Value, path: () -> [any CodingKey]) throws -> [UInt8]? {
        switch unwrapTagged(value) {
        case .bytes(let b): return b
        case .string(let text):
            if let b = Base64Text.bytes(from: text) { return b }
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Expected base64 data but found '\(text.prefix(40))'."))
        case .array: return nil
        default: throw mismatch(Data.self, value, path: path())
        }
    }

    func url(_ value: Value, path: @autoclosure () -> [any CodingKey]) throws -> URL {
        let text = try string(value, path: path())
        if let url = URL(string: text) { return url }
        throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Invalid URL '\(text.prefix(80))'."))
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { unwrapTagged(value).isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(value, path: codingPath) }
    func decode(_ type: String.Type) throws -> String { try string(value, path: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try double(value, path: { self.codingPath }) }
    func decode(_ type: Float.Type) throws -> Float { try float(value, path: { self.codingPath }) }
    func decode(_ type: Int.Type) throws -> Int { try integer(value, as: Int.self, path: { self.codingPath }) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(value, as: Int8.self, path: { self.codingPath }) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(value, as: Int16.self, path: { self.codingPath }) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(value, as: Int32.self, path: { self.codingPath }) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(value, as: Int64.self, path: { self.codingPath }) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(value, as: UInt.self, path: { self.codingPath }) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(value, as: UInt8.self, path: { self.codingPath }) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(value, as: UInt16.self, path: { self.codingPath }) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(value, as: UInt32.self, path: { self.codingPath }) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(value, as: UInt64.self, path: { self.codingPath }) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let primitive = try decodePrimitive(value, as: T.self, path: { self.codingPath }) { return primitive }
        return try T(from: self)
    }
}
