import Parley

/// The unkeyed container of ``JSONTapeDecoder``: an array's elements on the tape, in order.
final class JSONTapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: JSONTapeDecoder
    let tape: JSONTape
    let elementCount: Int
    let pathCount: Int
    let nestedKeys: [any CodingKey]
    private(set) var currentIndex = 0
    /// The entry of the element at `currentIndex`.
    private var entry: Int

    init(decoder: JSONTapeDecoder, array: Int, pathCount: Int, nestedKeys: [any CodingKey]) {
        self.decoder = decoder
        self.tape = decoder.tape
        self.elementCount = Int(decoder.tape.entries[array].length)
        self.entry = array + 1
        self.pathCount = pathCount
        self.nestedKeys = nestedKeys
    }

    var codingPath: [any CodingKey] { decoder.path(pathCount, nestedKeys, nil) }
    var count: Int? { elementCount }
    var isAtEnd: Bool { currentIndex >= elementCount }

    /// The entry of the next element; moves past it.
    @inline(__always)
    private func next(_ type: Any.Type) throws -> Int {
        guard currentIndex < elementCount else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: decoder.path(pathCount, nestedKeys, CodingIndexKey(intValue: currentIndex)),
                    debugDescription: "Unkeyed container is at end."))
        }
        let current = entry
        entry = tape.next(after: current)
        currentIndex += 1
        return current
    }

    /// The path of the element just taken by `next`.
    private var currentPath: [any CodingKey] {
        decoder.path(pathCount, nestedKeys, CodingIndexKey(intValue: currentIndex - 1))
    }

    func decodeNil() throws -> Bool {
        guard currentIndex < elementCount else {
            throw DecodingError.valueNotFound(
                Any?.self,
                .init(
                    codingPath: decoder.path(pathCount, nestedKeys, CodingIndexKey(intValue: currentIndex)),
                    debugDescription: "Unkeyed container is at end."))
        }
        if tape.entries[entry].kind == .null {
            _ = try next(Any?.self)
            return true
        }
        return false
    }

    /// The scalar value of the next element.
    @inline(__always)
    private func nextValue(_ type: Any.Type) throws -> Value { tape.scalar(at: try next(type)) }

    func decode(_ type: Bool.Type) throws -> Bool {
        let v = try nextValue(type); return try decoder.options.bool(v, path: currentPath)
    }
    func decode(_ type: String.Type) throws -> String {
        let element = try next(type)
        if let string = tape.stringIfString(at: element) { return string }
        return try decoder.options.string(tape.scalar(at: element), path: currentPath)
    }
    func decode(_ type: Double.Type) throws -> Double {
        let v = try nextValue(type); return try decoder.options.double(v, path: { self.currentPath })
    }
    func decode(_ type: Float.Type) throws -> Float {
        let v = try nextValue(type); return try decoder.options.float(v, path: { self.currentPath })
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

    @inline(__always)
    private func integer<T: FixedWidthInteger>() throws -> T {
        let v = try nextValue(T.self)
        return try decoder.options.integer(v, as: T.self, path: { self.currentPath })
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let element = try next(type)
        return try decoder.unwrap(element, as: T.self, pathCount: pathCount, nestedKeys: nestedKeys,
                                  key: CodingIndexKey(intValue: currentIndex - 1))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let element = try next([String: Any].self)
        try decoder.expect(.object, at: element, path: currentPath)
        return KeyedDecodingContainer(JSONTapeKeyedContainer<NestedKey>(
            decoder: decoder, object: element, pathCount: pathCount,
            nestedKeys: nestedKeys + [CodingIndexKey(intValue: currentIndex - 1)]))
    }

    func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let element = try next([Any].self)
        try decoder.expect(.array, at: element, path: currentPath)
        return JSONTapeUnkeyedContainer(decoder: decoder, array: element, pathCount: pathCount,
                                        nestedKeys: nestedKeys + [CodingIndexKey(intValue: currentIndex - 1)])
    }

    func superDecoder() throws -> any Decoder {
        let element = try next(Any.self)
        return JSONTapeDecoder(tape: tape, index: element, codingPath: currentPath, options: decoder.options)
    }
}
