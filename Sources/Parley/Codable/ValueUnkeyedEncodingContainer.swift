/// The unkeyed container of `ValueEncoderImplementation`.
struct ValueUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoderImplementation
    let array: EncodedArray
    let codingPath: [any CodingKey]

    var count: Int { array.elements.count }

    private var nextKey: CodingIndexKey { CodingIndexKey(intValue: array.elements.count) }

    mutating func encodeNil() { array.elements.append(.value(.null)) }
    mutating func encode(_ value: Bool) { array.elements.append(.value(.bool(value))) }
    mutating func encode(_ value: String) { array.elements.append(.value(.string(value))) }
    mutating func encode(_ value: Double) { array.elements.append(.value(.float(value))) }
    mutating func encode(_ value: Float) { array.elements.append(.value(ValueEncoderImplementation.float(value))) }
    mutating func encode(_ value: Int) { array.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: Int8) { array.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: Int16) { array.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: Int32) { array.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: Int64) { array.elements.append(.value(.integer(value))) }
    mutating func encode(_ value: UInt) { array.elements.append(.value(ValueEncoderImplementation.integer(value))) }
    mutating func encode(_ value: UInt8) { array.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: UInt16) { array.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: UInt32) { array.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: UInt64) { array.elements.append(.value(ValueEncoderImplementation.integer(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let primitive = try encoder.primitive(value) {
            array.elements.append(.value(primitive))
            return
        }
        array.elements.append(try encoder.encodeNested(value, path: codingPath + [nextKey]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedObject()
        let path = codingPath + [nextKey]
        array.elements.append(.object(nested))
        return KeyedEncodingContainer(
            ValueKeyedEncodingContainer<NestedKey>(encoder: encoder, object: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        let path = codingPath + [nextKey]
        array.elements.append(.array(nested))
        return ValueUnkeyedEncodingContainer(encoder: encoder, array: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let child = ValueEncoderImplementation(options: encoder.options, codingPath: codingPath + [nextKey])
        array.elements.append(.deferred(child))
        return child
    }
}
