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
        return ValueUnkeyedDecodingContainer(
            decoder: self, elements: elements, pathCount: codingPath.count, nestedKeys: [])
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Nested values

    /// Decodes `value` as `T` at `codingPath[..<pathCount] + nestedKeys + [key]`.
    func unwrap<T: Decodable>(_ value: Value, as type: T.Type, pathCount: Int, nestedKeys: [any CodingKey],
                              key: any CodingKey) throws -> T {
        if ValueDecoder.mayDecodePrimitive(T.self),
           let primitive = try decodePrimitive(value, as: T.self, path: { self.path(pathCount, nestedKeys, key) }) {
            return primitive
        }
        guard codingPath.count == pathCount else {
            // A container used outside its parent's scope: decode with a decoder of its own.
            let child = ValueDecoderImplementation(
                value: value, codingPath: path(pathCount, nestedKeys, key), options: options)
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
        codingPath.codingPath(prefix: count, nestedKeys, key)
    }

    /// The primitive types and arrays of them, decoded without an `init(from:)` call (see
    /// `ValueDecoder/decodePrimitive(_:as:path:)`).
    func decodePrimitive<T: Decodable>(_ value: Value, as type: T.Type, path: () -> [any CodingKey]) throws -> T? {
        try options.decodePrimitive(Node(value: value, decoder: self), as: T.self, path: path)
    }

    /// A value with the decoder that reads it, as the shared primitive decoding sees it.
    struct Node: CodableNode {
        let value: Value
        let decoder: ValueDecoderImplementation

        var scalar: Value { value }

        func mapElements<Element>(path: () -> [any CodingKey],
                                  _ convert: (Value, () -> [any CodingKey]) throws -> Element) throws -> [Element] {
            let elements = try decoder.arrayValue(value, path: path())
            return try withoutActuallyEscaping(path) { path in
                var result: [Element] = []
                result.reserveCapacity(elements.count)
                for (index, element) in elements.enumerated() {
                    result.append(try convert(element, { path() + [CodingIndexKey(intValue: index)] }))
                }
                return result
            }
        }

        func decodeDeferredDate() throws -> Date {
            let saved = decoder.value
            decoder.value = decoder.options.unwrapTagged(value)
            defer { decoder.value = saved }
            return try Date(from: decoder)
        }
    }

    // MARK: Containers' values

    func unwrapTagged(_ value: Value) -> Value { options.unwrapTagged(value) }

    func objectValue(_ value: Value, path: @autoclosure () -> [any CodingKey]) throws -> Value.Object {
        switch value {
        case .object(let object): return object
        case .tagged: return try objectValue(unwrapTagged(value), path: path())
        default: throw options.mismatch([String: Any].self, value, path: path())
        }
    }

    func arrayValue(_ value: Value, path: @autoclosure () -> [any CodingKey]) throws -> [Value] {
        switch value {
        case .array(let elements): return elements
        case .tagged: return try arrayValue(unwrapTagged(value), path: path())
        case .null: throw options.mismatch([Any].self, value, path: path())
        default:
            if options.decodesSingleValuesAsArrays { return [value] }
            throw options.mismatch([Any].self, value, path: path())
        }
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { unwrapTagged(value).isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try options.bool(value, path: codingPath) }
    func decode(_ type: String.Type) throws -> String { try options.string(value, path: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try options.double(value, path: { self.codingPath }) }
    func decode(_ type: Float.Type) throws -> Float { try options.float(value, path: { self.codingPath }) }
    func decode(_ type: Int.Type) throws -> Int { try options.integer(value, as: Int.self, path: { self.codingPath }) }
    func decode(_ type: Int8.Type) throws -> Int8 {
        try options.integer(value, as: Int8.self, path: { self.codingPath })
    }
    func decode(_ type: Int16.Type) throws -> Int16 {
        try options.integer(value, as: Int16.self, path: { self.codingPath })
    }
    func decode(_ type: Int32.Type) throws -> Int32 {
        try options.integer(value, as: Int32.self, path: { self.codingPath })
    }
    func decode(_ type: Int64.Type) throws -> Int64 {
        try options.integer(value, as: Int64.self, path: { self.codingPath })
    }
    func decode(_ type: UInt.Type) throws -> UInt {
        try options.integer(value, as: UInt.self, path: { self.codingPath })
    }
    func decode(_ type: UInt8.Type) throws -> UInt8 {
        try options.integer(value, as: UInt8.self, path: { self.codingPath })
    }
    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try options.integer(value, as: UInt16.self, path: { self.codingPath })
    }
    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try options.integer(value, as: UInt32.self, path: { self.codingPath })
    }
    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try options.integer(value, as: UInt64.self, path: { self.codingPath })
    }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let primitive = try decodePrimitive(value, as: T.self, path: { self.codingPath }) { return primitive }
        return try T(from: self)
    }
}
