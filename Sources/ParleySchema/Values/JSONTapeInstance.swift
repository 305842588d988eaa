import Parley
package import ParleyJSON

/// A value of a parsed JSON text, read from the text's tape: members and elements are walked
/// entry by entry, and only the scalars a keyword reads become values, so validating a body
/// builds no tree.
package struct JSONTapeInstance: SchemaInstance {
    let tape: JSONTape
    let entry: Int
    /// The tape's entries and bytes (its ``JSONTape/valueTape``), read in place: the tape, held
    /// here, keeps them (kept, see Benchmarks/Gate/kept-shortcuts.md).
    let entries: UnsafePointer<ValueTapeEntry>
    let bytes: UnsafePointer<UInt8>

    /// The value at entry `entry` of `tape` (0: the whole text).
    package init(_ tape: JSONTape, entry: Int = 0) {
        // A JSON tape always has its entries and bytes (`valueTape` is optional for other documents).
        let view = tape.valueTape
        self.init(tape, entry: entry, entries: view!.entries, bytes: view!.bytes)
    }

    init(_ tape: JSONTape, entry: Int, entries: UnsafePointer<ValueTapeEntry>, bytes: UnsafePointer<UInt8>) {
        self.tape = tape
        self.entry = entry
        self.entries = entries
        self.bytes = bytes
    }

    /// The value at another entry of the same tape.
    func at(_ index: Int) -> JSONTapeInstance {
        JSONTapeInstance(tape, entry: index, entries: entries, bytes: bytes)
    }

    var value: Value { tape.value(at: entry) }

    var scalar: Value? {
        let item = entries[entry]
        switch item.kind {
        case .array, .object: return nil
        case .integer: return .integer(Int64(bitPattern: item.payload))
        case .float: return .float(Double(bitPattern: item.payload))
        default: return tape.scalar(at: entry)
        }
    }

    var binaryNumber: BinaryNumber? {
        let item = entries[entry]
        switch item.kind {
        case .integer: return .integer(Int64(bitPattern: item.payload))
        case .float: return .float(Double(bitPattern: item.payload))
        default: return nil
        }
    }

    var kind: InstanceKind {
        let item = entries[entry]
        switch item.kind {
        case .null: return .null
        case .falseValue, .trueValue: return .boolean
        case .plainString, .decodedString: return .string
        case .array: return .array
        case .object: return .object
        case .integer: return .integer
        case .float:
            // As `InstanceKind(_:)` reads a float, without building its value.
            let d = Double(bitPattern: item.payload)
            return d.isFinite && d == d.rounded() ? .integer : .number
        case .numberText: return InstanceKind(tape.scalar(at: entry))
        }
    }

    // Inlined into the node's pass (kept, see Benchmarks/Gate/kept-shortcuts.md).
    @inline(__always)
    func hasType(among types: TypeSet) -> Bool {
        switch entries[entry].kind {
        case .null: types.contains(.null)
        case .falseValue, .trueValue: types.contains(.boolean)
        case .plainString, .decodedString: types.contains(.string)
        case .array: types.contains(.array)
        case .object: types.contains(.object)
        case .integer: types.contains(.integer) || types.contains(.number)
        case .float, .numberText: types.contains(.number) || types.admits(kind)
        }
    }

    var schemaString: String? { tape.stringIfString(at: entry) }

    var text: String? { tape.stringIfString(at: entry) }

    /// The UTF-8 bytes of a string entry without escapes, in the tape's bytes; `nil` otherwise
    /// (inlined into each member's lookup and string step: kept, see
    /// Benchmarks/Gate/kept-shortcuts.md).
    @inline(__always)
    static func plainStringBytes(
        _ index: Int, _ entries: UnsafePointer<ValueTapeEntry>, _ bytes: UnsafePointer<UInt8>
    ) -> UnsafeBufferPointer<UInt8>? {
        let item = entries[index]
        guard item.kind == .plainString else { return nil }
        return UnsafeBufferPointer(start: bytes + Int(truncatingIfNeeded: item.payload), count: Int(item.length))
    }

    /// The entry after the value at `index` and everything nested in it.
    func next(after index: Int) -> Int {
        let item = entries[index]
        switch item.kind {
        case .array, .object: return Int(truncatingIfNeeded: item.payload)
        default: return index &+ 1
        }
    }

    /// A string without escapes is counted in the tape's (validated UTF-8) bytes: each code point
    /// has one byte that is not a continuation byte, so no `String` is built.
    var schemaStringLength: Int? {
        guard let bytes = schemaStringUTF8 else { return schemaString?.unicodeScalars.count }
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count &+= 1 }
        return count
    }

    var schemaStringByteCount: Int? {
        schemaStringUTF8?.count ?? schemaString?.utf8.count
    }

    var schemaStringUTF8: UnsafeBufferPointer<UInt8>? { Self.plainStringBytes(entry, entries, bytes) }

    var untagged: Value? { nil }

    var tapeView: JSONTapeInstance? { nil }

    var elementCount: Int? {
        let item = entries[entry]
        return item.kind == .array ? Int(item.length) : nil
    }

    var memberCount: Int? {
        let item = entries[entry]
        return item.kind == .object ? Int(item.length) : nil
    }

    func forEachElement<E: Error>(_ body: (Int, JSONTapeInstance) throws(E) -> Bool) throws(E) -> Bool
    {
        guard let count = elementCount else { return true }
        var element = entry &+ 1
        for position in 0..<count {
            if try !body(position, at(element)) { return false }
            element = next(after: element)
        }
        return true
    }

    func forEachMember<E: Error>(_ body: (Name, JSONTapeInstance) throws(E) -> Bool) throws(E) -> Bool
    {
        guard let count = memberCount else { return true }
        var key = entry &+ 1
        for _ in 0..<count {
            if try !body(Name(tape: tape, entry: key, entries: entries, bytes: bytes), at(key &+ 1)) { return false }
            key = next(after: key &+ 1)
        }
        return true
    }

    func containsMember(named name: String) -> Bool {
        memberCount != nil && tape.containsMember(named: name, of: UInt32(truncatingIfNeeded: entry))
    }

    func member(named name: String) -> JSONTapeInstance? {
        guard memberCount != nil, let value = tape.lastMember(of: entry, named: name) else { return nil }
        return at(value)
    }

    /// A member's name: its key entry, looked up among a schema's properties by its bytes when
    /// it has no escapes (see ``PropertyNames``) and as a string otherwise.
    struct Name: SchemaMemberName {
        let tape: JSONTape
        let entry: Int
        let entries: UnsafePointer<ValueTapeEntry>
        let bytes: UnsafePointer<UInt8>

        var string: String { tape.string(at: entry) }

        func property(in applicator: ObjectApplicator) -> Int? {
            if let key = JSONTapeInstance.plainStringBytes(entry, entries, bytes) {
                switch applicator.names.first(utf8: key) {
                case .at(let position): return position
                case .absent: return nil
                case .undecided: break
                }
            }
            return applicator.names.first(string)
        }
    }
}
