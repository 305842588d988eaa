import Parley
package import ParleyJSON

/// A value of a parsed JSON text, read from the text's tape: members and elements are walked
/// entry by entry, and only the scalars a keyword reads become values, so validating a body
/// builds no tree.
package struct JSONTapeInstance: SchemaInstance {
    let tape: JSONTape
    let entry: Int

    /// The value at entry `entry` of `tape` (0: the whole text).
    package init(_ tape: JSONTape, entry: Int = 0) {
        self.tape = tape
        self.entry = entry
    }

    var value: Value { tape.value(at: entry) }

    var scalar: Value? {
        switch tape.kind(at: entry) {
        case .array, .object: nil
        default: tape.scalar(at: entry)
        }
    }

    var kind: InstanceKind {
        switch tape.kind(at: entry) {
        case .null: return .null
        case .falseValue, .trueValue: return .boolean
        case .plainString, .decodedString: return .string
        case .array: return .array
        case .object: return .object
        case .integer: return .integer
        case .float, .numberText:
            let value = tape.scalar(at: entry)
            // A float read as `InstanceKind(_:)` reads it, without its switch over every case.
            if case .float(let d) = value { return d.isFinite && d == d.rounded() ? .integer : .number }
            return InstanceKind(value)
        }
    }

    var schemaString: String? { tape.stringIfString(at: entry) }

    var text: String? { tape.stringIfString(at: entry) }

    /// A string without escapes is counted in the tape's (validated UTF-8) bytes: each code point
    /// has one byte that is not a continuation byte, so no `String` is built.
    var schemaStringLength: Int? {
        guard let bytes = tape.plainStringBytes(at: entry) else { return schemaString?.unicodeScalars.count }
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count &+= 1 }
        return count
    }

    var schemaStringByteCount: Int? {
        tape.plainStringBytes(at: entry)?.count ?? schemaString?.utf8.count
    }

    var schemaStringUTF8: UnsafeBufferPointer<UInt8>? { tape.plainStringBytes(at: entry) }

    var untagged: Value? { nil }

    var tapeView: JSONTapeInstance? { nil }

    var elementCount: Int? { tape.kind(at: entry) == .array ? tape.count(at: entry) : nil }

    var memberCount: Int? { tape.kind(at: entry) == .object ? tape.count(at: entry) : nil }

    func forEachElement<E: Error>(_ body: (Int, JSONTapeInstance) throws(E) -> Bool) throws(E) -> Bool
    {
        guard tape.kind(at: entry) == .array else { return true }
        var element = entry &+ 1
        for position in 0..<tape.count(at: entry) {
            if try !body(position, JSONTapeInstance(tape, entry: element)) { return false }
            element = tape.next(after: element)
        }
        return true
    }

    func forEachMember<E: Error>(_ body: (Name, JSONTapeInstance) throws(E) -> Bool) throws(E) -> Bool
    {
        guard tape.kind(at: entry) == .object else { return true }
        var key = entry &+ 1
        for _ in 0..<tape.count(at: entry) {
            if try !body(Name(tape: tape, entry: key), JSONTapeInstance(tape, entry: key &+ 1)) { return false }
            key = tape.next(after: key &+ 1)
        }
        return true
    }

    func containsMember(named name: String) -> Bool {
        tape.kind(at: entry) == .object && tape.containsMember(named: name, of: UInt32(truncatingIfNeeded: entry))
    }

    func member(named name: String) -> JSONTapeInstance? {
        guard tape.kind(at: entry) == .object, let value = tape.lastMember(of: entry, named: name) else { return nil }
        return JSONTapeInstance(tape, entry: value)
    }

    /// A member's name: its key entry, looked up among a schema's properties by its bytes when
    /// it has no escapes (see ``PropertyNames``) and as a string otherwise.
    struct Name: SchemaMemberName {
        let tape: JSONTape
        let entry: Int

        var string: String { tape.string(at: entry) }

        func property(in applicator: ObjectApplicator) -> Int? {
            if let key = tape.plainStringBytes(at: entry) {
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
