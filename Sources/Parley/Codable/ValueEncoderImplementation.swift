import FoundationEssentials

/// The `Encoder` behind `ValueEncoder`.
///
/// One instance encodes a whole tree: encoding a nested value swaps `node` and pushes its key
/// on `codingPath` for the duration.
final class ValueEncoderImplementation: Encoder, SingleValueEncodingContainer {
    let options: ValueEncoder
    var codingPath: [any CodingKey]
    var node: EncodedNode?
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    init(options: ValueEncoder, codingPath: [any CodingKey]) {
        self.options = options
        self.codingPath = codingPath
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodedObject
        if case .object(let existing) = node {
            object = existing
        } else {
            object = EncodedObject()
            node = .object(object)
        }
        return KeyedEncodingContainer(
            ValueKeyedEncodingContainer<Key>(encoder: self, object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodedArray
        if case .array(let existing) = node {
            array = existing
        } else {
            array = EncodedArray()
            node = .array(array)
        }
        return ValueUnkeyedEncodingContainer(encoder: self, array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: Nested values

    /// Encodes `value` as a node at `path` (the encoder's path is swapped for the duration).
    func encodeNested<T: Encodable>(_ value: T, path: [any CodingKey]) throws -> EncodedNode {
        let savedPath = codingPath
        codingPath = path
        defer { codingPath = savedPath }
        return try encodeNested(value) ?? .object(EncodedObject())
    }

    /// Encodes `value` as a node at the current path; `nil` when it encoded nothing.
    func encodeNested<T: Encodable>(_ value: T) throws -> EncodedNode? {
        if let primitive = try primitive(value) { return .value(primitive) }
        let saved = node
        node = nil
        defer { node = saved }
        try value.encode(to: self)
        return node
    }

    /// The value of types written without an `encode(to:)` call.
    func primitive<T: Encodable>(_ value: T) throws -> Value? {
        if let string = value as? String { return .string(string) }
        if let int = value as? Int { return .integer(Int64(int)) }
        if let double = value as? Double { return .float(double) }
        if let bool = value as? Bool { return .bool(bool) }
        if let date = value as? Date { return try encodeDate(date) }
        if let data = value as? Data { return try encodeData(data) }
        if let url = value as? URL { return .string(url.absoluteString) }
        if let decimal = value as? Decimal { return .number(decimal.description) }
        return nil
    }

    func encodeDate(_ date: Date) throws -> Value {
        switch options.dateEncodingStrategy {
        case .date: return .date(date)
        case .iso8601:
            guard let text = ISO8601Text.string(from: date) else {
                throw EncodingError.invalidValue(
                    date,
                    .init(
                        codingPath: codingPath,
                        debugDescription: ISO8601Text.noTimestampMessage(for: date)))
            }
            return .string(text)
        case .secondsSince1970: return .float(date.timeIntervalSince1970)
        case .millisecondsSince1970: return .float(date.timeIntervalSince1970 * 1000)
        case .deferredToDate: return .float(date.timeIntervalSinceReferenceDate)
        }
    }

    func encodeData(_ data: Data) throws -> Value {
        switch options.dataEncodingStrategy {
        case .bytes: return .bytes([UInt8](data))
        case .base64: return .string(Base64Text.string(from: [UInt8](data)))
        case .deferredToData: return .array(data.map { .integer(Int64($0)) })
        }
    }

    static func integer<T: FixedWidthInteger>(_ value: T) -> Value {
        if let exact = Int64(exactly: value) { return .integer(exact) }
        return .number(String(value))
    }

    static func float(_ value: Float) -> Value {
        // The Float's shortest decimal text, read as a Double: 0.1 stays 0.1.
        .float(value.isFinite ? Double(value.description) ?? Double(value) : Double(value))
    }

    // MARK: SingleValueEncodingContainer

    func encodeNil() { node = .value(.null) }
    func encode(_ value: Bool) { node = .value(.bool(value)) }
    func encode(_ value: String) { node = .value(.string(value)) }
    func encode(_ value: Double) { node = .value(.float(value)) }
    func encode(_ value: Float) { node = .value(Self.float(value)) }
    func encode(_ value: Int) { node = .value(.integer(Int64(value))) }
    func encode(_ value: Int8) { node = .value(.integer(Int64(value))) }
    func encode(_ value: Int16) { node = .value(.integer(Int64(value))) }
    func encode(_ value: Int32) { node = .value(.integer(Int64(value))) }
    func encode(_ value: Int64) { node = .value(.integer(value)) }
    func encode(_ value: UInt) { node = .value(Self.integer(value)) }
    func encode(_ value: UInt8) { node = .value(.integer(Int64(value))) }
    func encode(_ value: UInt16) { node = .value(.integer(Int64(value))) }
    func encode(_ value: UInt32) { node = .value(.integer(Int64(value))) }
    func encode(_ value: UInt64) { node = .value(Self.integer(value)) }
    func encode<T: Encodable>(_ value: T) throws {
        if let primitive = try primitive(value) {
            node = .value(primitive)
            return
        }
        try value.encode(to: self)
    }
}
