import Parley
import ParleyJSON

/// A read-only view of an instance for the validator: a `Value`, or the entries of a parsed JSON
/// text (``JSONTapeInstance``), which is then validated without building its members' values.
/// Every view answers as the instance's `Value` would, so validation has one semantics.
protocol SchemaInstance {
    /// The name of an object member.
    associatedtype MemberName: SchemaMemberName

    /// The instance as a value (a view over other storage builds it).
    var value: Value { get }
    /// The instance as a value when it is neither an array nor an object.
    var scalar: Value? { get }
    /// The instance when it is a 64-bit integer or a binary float (not number text, not tagged):
    /// what a number keyword's fast path reads without making a `Value`.
    var binaryNumber: BinaryNumber? { get }
    /// Its type as JSON Schema sees it.
    var kind: InstanceKind { get }
    /// Whether ``kind`` is one of `types` (as ``TypeSet/admits(_:)`` has it), told without
    /// deciding whether a number is an integer when `types` has `number`.
    func hasType(among types: TypeSet) -> Bool
    /// The text of a string-kind instance (dates and bytes as text).
    var schemaString: String? { get }
    /// The length of ``schemaString`` as JSON Schema counts it (Unicode code points); `nil` when
    /// the instance is not of string kind.
    var schemaStringLength: Int? { get }
    /// The number of UTF-8 bytes of ``schemaString`` (bounding its length: a code point takes 1 to
    /// 4 bytes); `nil` when the instance is not of string kind.
    var schemaStringByteCount: Int? { get }
    /// The UTF-8 bytes of ``schemaString`` when the instance holds them as they are (a string
    /// without escapes in a JSON text's tape), valid while the instance is; `nil` otherwise.
    var schemaStringUTF8: UnsafeBufferPointer<UInt8>? { get }
    /// The text of a string instance, for reading it by type (``JSONSchema/ValidationOptions/coercesStrings``).
    var text: String? { get }
    /// The instance a tag wraps, as the schema sees it; `nil` when it is not tagged.
    var untagged: Value? { get }
    /// The instance read from a JSON text's tape, when it is an object that builds its members
    /// from one (a decoded JSON body's objects do): validated there, its members need no values.
    var tapeView: JSONTapeInstance? { get }
    /// The number of elements of an array; `nil` when it is not one.
    var elementCount: Int? { get }
    /// The number of members of an object; `nil` when it is not one.
    var memberCount: Int? { get }

    /// Calls `body` with each element's position and view, in order, until it returns `false`;
    /// whether it ran to the end.
    func forEachElement<E: Error>(_ body: (Int, Self) throws(E) -> Bool) throws(E) -> Bool
    /// Calls `body` with each member's name and view, in order, until it returns `false`;
    /// whether it ran to the end.
    func forEachMember<E: Error>(_ body: (MemberName, Self) throws(E) -> Bool) throws(E) -> Bool
    /// Whether an object has a member named `name`.
    func containsMember(named name: String) -> Bool
    /// The last member named `name` of an object.
    func member(named name: String) -> Self?
}

/// A number held as a 64-bit integer or a binary float.
enum BinaryNumber {
    case integer(Int64)
    case float(Double)
}

/// The name of a member of a ``SchemaInstance``.
protocol SchemaMemberName {
    /// The name as a string.
    var string: String { get }
    /// The position in `applicator`'s `properties` of the first one with this name, as `String`
    /// equality has it.
    func property(in applicator: ObjectApplicator) -> Int?
}

extension String: SchemaMemberName {
    var string: String { self }

    func property(in applicator: ObjectApplicator) -> Int? {
        applicator.names.first(self)
    }
}

extension Value: SchemaInstance {
    var value: Value { self }

    var scalar: Value? {
        switch self {
        case .array, .object: nil
        default: self
        }
    }

    var binaryNumber: BinaryNumber? {
        switch self {
        case .integer(let i): .integer(i)
        case .float(let d): .float(d)
        default: nil
        }
    }

    var kind: InstanceKind { InstanceKind(self) }

    func hasType(among types: TypeSet) -> Bool {
        switch self {
        case .null: types.contains(.null)
        case .bool: types.contains(.boolean)
        case .integer: types.contains(.integer) || types.contains(.number)
        case .float, .number: types.contains(.number) || types.admits(kind)
        case .string, .date, .bytes: types.contains(.string)
        case .array: types.contains(.array)
        case .object: types.contains(.object)
        case .tagged: types.admits(kind)
        }
    }

    var schemaStringLength: Int? { schemaString?.unicodeScalars.count }

    var schemaStringByteCount: Int? { schemaString?.utf8.count }

    var schemaStringUTF8: UnsafeBufferPointer<UInt8>? { nil }

    var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var untagged: Value? {
        if case .tagged(_, let inner) = self { return inner.schemaView }
        return nil
    }

    var tapeView: JSONTapeInstance? {
        guard case .object(let object) = self, let (document, entry) = object.deferredDocument,
            let tape = document as? JSONTape
        else { return nil }
        return JSONTapeInstance(tape, entry: Int(entry))
    }

    var elementCount: Int? {
        if case .array(let elements) = self { return elements.count }
        return nil
    }

    var memberCount: Int? {
        if case .object(let object) = self { return object.count }
        return nil
    }

    func forEachElement<E: Error>(_ body: (Int, Value) throws(E) -> Bool) throws(E) -> Bool {
        guard case .array(let elements) = self else { return true }
        for (position, element) in elements.enumerated() where try !body(position, element) { return false }
        return true
    }

    func forEachMember<E: Error>(_ body: (String, Value) throws(E) -> Bool) throws(E) -> Bool {
        guard case .object(let object) = self else { return true }
        for member in object where try !body(member.key, member.value) { return false }
        return true
    }

    func containsMember(named name: String) -> Bool {
        guard case .object(let object) = self else { return false }
        return object.contains(key: name)
    }

    func member(named name: String) -> Value? {
        guard case .object(let object) = self else { return nil }
        return object[name]
    }
}
