/// The unkeyed container of `ValueDecoderImplementation`: an array's elements in order.
///
/// A class, so the `any UnkeyedDecodingContainer` holding it needs no separate box and calls
/// copy nothing.
final class ValueUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoder: ValueDecoderImplementation
    let elements: [Value]
    let pathCount: Int
    let nestedKeys: [any CodingKey]
    private(set) var currentIndex = 0

    init(decoder: ValueDecoderImplementation, elements: [Value], pathCount: Int, nestedKeys: [any CodingKey]) {
        self.decoder = decoder
        self.elements = elements
        self.pathCount = pathCount
        self.nestedKeys = nestedKeys
    }

    var codingPath: [any CodingKey] { decoder.path(pathCount, nestedKeys, nil) }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var currentKey: CodingIndexKey { CodingIndexKey(intValue: currentIndex) }

    private func next(_ type: Any.Type) throws -> Value {
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(type, .init(codingPath: decoder.path(pathCount, nestedKeys, currentKey),
                                                          debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return elements[currentIndex]
    }

    private var currentPath: [any CodingKey] {
        decoder.path(pathCount, nestedKeys, CodingIndexKey(intValue: currentIndex - 1))
    }

    func decodeNil() throws -> Bool {
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(
                Any?.self,
                .init(
                    codingPath: decoder.path(pathCount, nestedKeys, currentKey),
                    debugDescription: "Unkeyed container is at end."))
        }
        if decoder.unwrapTagged(elements[currentIndex]).isNull {
            currentIndex += 1
            return true
        }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        let v = try next(type); return try decoder.options.bool(v, path: currentPath)
    }
    func decode(_ type: String.Type) throws -> String {
        let v = try next(type); return try decoder.options.string(v, path: currentPath)
    }
    func decode(_ type: Double.Type) throws -> Double {
        let v = try next(type); return try decoder.options.double(v, path: { self.currentPath })
    }
    func decode(_ type: Float.Type) throws -> Float {
        let v = try next(type); return try decoder.options.float(v, path: { self.currentPath })
    }
    func decode(_ type: Int.Type) throws -> Int { try integer() }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    private func integer<T: FixedWidthInteger>() throws -> T {
        let v = try next(T.self)
        let path = { self.currentPath }
        return try decoder.options.integer(v, as: T.self, path: path)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let v = try next(type)
        return try decoder.unwrap(v, as: T.self, pathCount: pathCount, nestedKeys: nestedKeys,
                                  key: CodingIndexKey(intValue: currentIndex - 1))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let v = try next([String: Any].self)
        let object = try decoder.objectValue(v, path: currentPath)
        return KeyedDecodingContainer(ValueKeyedDecodingContainer<NestedKey>(
            decoder: decoder, object: object, pathCount: pathCount,
            nestedKeys: nestedKeys + [CodingIndexKey(intValue: currentIndex - 1)]))
    }

    func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let v = try next([Any].self)
        let elements = try decoder.arrayValue(v, path: currentPath)
        return ValueUnkeyedDecodingContainer(decoder: decoder, elements: elements, pathCount: pathCount,
                                             nestedKeys: nestedKeys + [CodingIndexKey(intValue: currentIndex - 1)])
    }

    func superDecoder() throws -> any Decoder {
        let v = try next(Any.self)
        return ValueDecoderImplementation(value: v, codingPath: currentPath, options: decoder.options)
    }
}
