public import FoundationEssentials

/// A format-neutral value: what every value format (JSON, YAML, property lists, …) decodes
/// into and encodes from, so any of them can be transcoded into any other.
///
/// Numbers keep their exact value: an integer that fits 64 bits is ``integer(_:)``, a decimal
/// that a `Double` represents exactly enough to round-trip is ``float(_:)``, and anything else
/// (integers beyond 64 bits, `1e400`, decimals with more than 15 significant digits) is kept
/// as its text in ``number(_:)``.
public enum Value: Sendable, Hashable {
    /// The absence of a value (`null`, `~`, …).
    case null
    /// A Boolean.
    case bool(Bool)
    /// An integer that fits in 64 signed bits.
    case integer(Int64)
    /// A binary floating-point number.
    case float(Double)
    /// A number kept as its exact decimal text (JSON number grammar), for values that do not
    /// fit ``integer(_:)`` or ``float(_:)`` without loss.
    case number(String)
    /// A Unicode string.
    case string(String)
    /// Raw bytes (property-list `data`, YAML `!!binary`, MessagePack `bin`).
    case bytes([UInt8])
    /// A point in time.
    case date(Date)
    /// An ordered list.
    case array([Value])
    /// An ordered list of key/value members.
    case object(Object)
    /// A value with an application tag that the value model has no case for: a YAML tag Parley
    /// does not construct, a property-list UID (`"uid"`), a MessagePack extension type.
    indirect case tagged(String, Value)
}

extension Value {
    /// Whether this value is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The Boolean, if this is ``bool(_:)``.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The string, if this is ``string(_:)``.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The integer, if this value is an integer that fits 64 signed bits
    /// (``integer(_:)``, or ``number(_:)`` text of such an integer).
    public var integerValue: Int64? {
        switch self {
        case .integer(let i): return i
        case .number(let text): return Int64(text)
        default: return nil
        }
    }

    /// The number as a `Double`, if this is any kind of number (possibly rounded).
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .float(let d): return d
        case .number(let text): return Double(text)
        default: return nil
        }
    }

    /// The elements, if this is ``array(_:)``.
    public var arrayValue: [Value]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members, if this is ``object(_:)``.
    public var objectValue: Object? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The bytes, if this is ``bytes(_:)``.
    public var bytesValue: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }

    /// The date, if this is ``date(_:)``.
    public var dateValue: Date? {
        if case .date(let d) = self { return d }
        return nil
    }

    /// The member named `key` (the last one when keys repeat), if this is an object.
    public subscript(key: String) -> Value? {
        objectValue?[key]
    }

    /// The element at `index`, if this is an array and the index is in range.
    public subscript(index: Int) -> Value? {
        guard case .array(let a) = self, a.indices.contains(index) else { return nil }
        return a[index]
    }

    /// A short name of this value's kind, for error messages ("string", "object", …).
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .integer: "integer"
        case .float: "float"
        case .number: "number"
        case .string: "string"
        case .bytes: "bytes"
        case .date: "date"
        case .array: "array"
        case .object: "object"
        case .tagged(let tag, _): "tagged(\(tag))"
        }
    }
}

extension Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .float(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .object(Object(elements.map { Object.Member(key: $0.0, value: $0.1) }))
    }
}
