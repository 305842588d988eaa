/// The keyed container of `ValueDecoderImplementation`: an object's members, searched
/// linearly up to 16 members and through an index built once above that.
///
/// A class rather than a struct: `KeyedDecodingContainer`'s type-erasing box copies its
/// container through value witnesses on every call, and copying one reference is cheaper than
/// copying (and retaining) five fields.
final class ValueKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueDecoderImplementation
    let members: [Value.Object.Member]
    let index: [String: Int]?
    let pathCount: Int
    let nestedKeys: [any CodingKey]

    static var linearSearchLimit: Int { 16 }

    init(decoder: ValueDecoderImplementation, object: Value.Object, pathCount: Int, nestedKeys: [any CodingKey]) {
        self.decoder = decoder
        self.members = object.members
        self.pathCount = pathCount
        self.nestedKeys = nestedKeys
        if members.count > Self.linearSearchLimit {
            var index = [String: Int](minimumCapacity: members.count)
            for (position, member) in members.enumerated() { index[member.key] = position }
            self.index = index
        } else {
            self.index = nil
        }
    }

    var codingPath: [any CodingKey] { decoder.path(pathCount, nestedKeys, nil) }

    var allKeys: [Key] {
        var seen = Set<String>()
        return members.compactMap { seen.insert($0.key).inserted ? Key(stringValue: $0.key) : nil }
    }

    /// The value of the last member named `key`.
    func find(_ key: Key) -> Value? {
        let name = key.stringValue
        if let index {
            return index[name].map { members[$0].value }
        }
        return members.last { $0.key == name }?.value
    }

    func require(_ key: Key) throws -> Value {
        if let value = find(key) { return value }
        throw DecodingError.keyNotFound(
            key,
            .init(
                codingPath: codingPath,
                debugDescription: "No value associated with key '\(key.stringValue)'."))
    }

    func path(_ key: Key) -> [any CodingKey] { decoder.path(pathCount, nestedKeys, key) }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.unwrapTagged(try require(key)).isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.options.bool(try require(key), path: path(key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.options.string(try require(key), path: path(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.options.double(try require(key), path: { self.path(key) })
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.options.float(try require(key), path: { self.path(key) })
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
        try decoder.options.integer(try require(key), as: T.self, path: { self.path(key) })
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if decoder.options.decodesSingleValuesAsArrays, find(key) == nil, T.self != String.self,
           let collection = T.self as? any RangeReplaceableCollection.Type {
            return collection.init() as! T  // XML writes an empty array as no element at all
        }
        return try decoder.unwrap(try require(key), as: T.self, pathCount: pathCount, nestedKeys: nestedKeys, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let object = try decoder.objectValue(try require(key), path: path(key))
        return KeyedDecodingContainer(ValueKeyedDecodingContainer<NestedKey>(
            decoder: decoder, object: object, pathCount: pathCount, nestedKeys: nestedKeys + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let elements = try decoder.arrayValue(try require(key), path: path(key))
        return ValueUnkeyedDecodingContainer(decoder: decoder, elements: elements, pathCount: pathCount,
                                             nestedKeys: nestedKeys + [key])
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(key: CodingIndexKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(key: key)
    }

    private func superDecoder(key: any CodingKey) throws -> any Decoder {
        let value = find(key: key.stringValue) ?? .null
        return ValueDecoderImplementation(value: value, codingPath: decoder.path(pathCount, nestedKeys, key),
                                          options: decoder.options)
    }

    private func find(key name: String) -> Value? {
        members.last { $0.key == name }?.value
    }
}
