/// The keyed container of `ValueEncoderImplementation`.
struct ValueKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoderImplementation
    let object: EncodedObject
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) { object.set(key.stringValue, .value(.null)) }
    mutating func encode(_ value: Bool, forKey key: Key) { object.set(key.stringValue, .value(.bool(value))) }
    mutating func encode(_ value: String, forKey key: Key) { object.set(key.stringValue, .value(.string(value))) }
    mutating func encode(_ value: Double, forKey key: Key) { object.set(key.stringValue, .value(.float(value))) }
    mutating func encode(_ value: Float, forKey key: Key) {
        object.set(key.stringValue, .value(ValueEncoderImplementation.float(value)))
    }
    mutating func encode(_ value: Int, forKey key: Key) { object.set(key.stringValue, .value(.integer(Int64(value)))) }
    mutating func encode(_ value: Int8, forKey key: Key) { object.set(key.stringValue, .value(.integer(Int64(value)))) }
    mutating func encode(_ value: Int16, forKey key: Key) {
        object.set(key.stringValue, .value(.integer(Int64(value))))
    }
    mutating func encode(_ value: Int32, forKey key: Key) {
        object.set(key.stringValue, .value(.integer(Int64(value))))
    }
    mutating func encode(_ value: Int64, forKey key: Key) { object.set(key.stringValue, .value(.integer(value))) }
    mutating func encode(_ value: UInt, forKey key: Key) {
        object.set(key.stringValue, .value(ValueEncoderImplementation.integer(value)))
    }
    mutating func encode(_ value: UInt8, forKey key: Key) {
        object.set(key.stringValue, .value(.integer(Int64(value))))
    }
    mutating func encode(_ value: UInt16, forKey key: Key) {
        object.set(key.stringValue, .value(.integer(Int64(value))))
    }
    mutating func encode(_ value: UInt32, forKey key: Key) {
        object.set(key.stringValue, .value(.integer(Int64(value))))
    }
    mutating func encode(_ value: UInt64, forKey key: Key) {
        object.set(key.stringValue, .value(ValueEncoderImplementation.integer(value)))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let primitive = try encoder.primitive(value) {
            object.set(key.stringValue, .value(primitive))
            return
        }
        object.set(key.stringValue, try encoder.encodeNested(value, path: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested: EncodedObject
        if case .object(let existing) = object.node(forKey: key.stringValue) {
            nested = existing
        } else {
            nested = EncodedObject()
            object.set(key.stringValue, .object(nested))
        }
        return KeyedEncodingContainer(
            ValueKeyedEncodingContainer<NestedKey>(encoder: encoder, object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested: EncodedArray
        if case .array(let existing) = object.node(forKey: key.stringValue) {
            nested = existing
        } else {
            nested = EncodedArray()
            object.set(key.stringValue, .array(nested))
        }
        return ValueUnkeyedEncodingContainer(encoder: encoder, array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(key: CodingIndexKey(stringValue: "super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(key: key)
    }

    private func superEncoder(key: any CodingKey) -> any Encoder {
        let child = ValueEncoderImplementation(options: encoder.options, codingPath: codingPath + [key])
        object.set(key.stringValue, .deferred(child))
        return child
    }
}
