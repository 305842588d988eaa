/// Header fields as a recording stores them: in order, names as written, repeats kept.
///
/// Recordings hold fields that `HTTPFields` would refuse (HTTP/2 pseudo-headers such as
/// `:status` in browser HAR exports, names with spaces in hand-edited cassettes), so they are
/// kept verbatim here; lookups are case-insensitive.
public struct RecordedFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field.
    public struct Field: Sendable, Hashable {
        /// The name as recorded.
        public var name: String
        /// The value as recorded.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in recorded order.
    public var fields: [Field]

    /// Creates fields from a list.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates fields from name–value pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of the field named `name` (case-insensitive).
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value of the field named `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// Appends a field.
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }
}

extension String {
    /// ASCII case-insensitive equality, as HTTP field names compare.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
        }
    }
}
