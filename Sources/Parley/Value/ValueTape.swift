/// One entry of a parsed document laid out flat (a format's tape: JSON's): every value is one
/// entry, in document order, and an object's members are each a key (a string entry) followed by
/// its value.
@usableFromInline
package struct ValueTapeEntry {
    /// What an entry holds.
    @usableFromInline
    package enum Kind: UInt8 {
        case null, falseValue, trueValue
        /// `payload` is the `Int64`'s bit pattern.
        case integer
        /// `payload` is the `Double`'s bit pattern.
        case float
        /// `payload` indexes the tape's strings (exact number text, ``Value/number(_:)``).
        case numberText
        /// `payload` is the byte offset of the text (valid UTF-8) in the tape's bytes, `length`
        /// its byte count.
        case plainString
        /// `payload` indexes the tape's strings (a string too long for `length`).
        case decodedString
        /// `length` is the element count, `payload` the index of the entry after the array.
        case array
        /// `length` is the member count, `payload` the index of the entry after the object.
        case object
    }

    @usableFromInline package var kind: Kind
    @usableFromInline package var length: UInt32
    @usableFromInline package var payload: UInt64

    @inlinable
    package init(kind: Kind, length: UInt32, payload: UInt64) {
        self.kind = kind
        self.length = length
        self.payload = payload
    }
}

/// A parsed document's entries, bytes and strings (``ValueTapeEntry``), as an object that builds
/// its members on demand can hand them to an encoder: the encoder walks them as events
/// (``ValueEventWriter``) in a loop compiled for its own writer, each event a direct call.
///
/// The pointers are the document's memory: valid while the document lives, read-only.
@usableFromInline
package struct ValueTape {
    @usableFromInline package let entries: UnsafePointer<ValueTapeEntry>
    @usableFromInline package let bytes: UnsafePointer<UInt8>
    @usableFromInline package let strings: [String]
    /// The byte count of the document the tape was parsed from.
    @usableFromInline package let documentByteCount: Int

    @inlinable
    package init(entries: UnsafePointer<ValueTapeEntry>, bytes: UnsafePointer<UInt8>, strings: [String],
                 documentByteCount: Int) {
        self.entries = entries
        self.bytes = bytes
        self.strings = strings
        self.documentByteCount = documentByteCount
    }

    /// Writes the object at entry `object` to `writer`, in the order and with the parts its members
    /// built as values would give. Containers open are tracked on an explicit stack (never the
    /// machine stack), as deep as the parse allowed. Inlinable so it is specialised for each
    /// writer: a generic walk made every event a call through the writer's witness table.
    /// The writer first learns how long the document was.
    @inlinable
    package func writeEvents<W: ValueEventWriter>(of object: UInt32, to writer: inout W) throws(FormatError) {
        writer.prepare(forDocumentOf: documentByteCount)
        // The innermost open container: the members or elements it has left (0: none is open), and
        // whether it is an object. Those around it wait in `outer`, so that counting a value
        // touches two locals rather than the top of an array.
        var remaining = 0
        var isObject = false
        var outer: [(remaining: Int, isObject: Bool)] = []
        // Room for the nesting of a typical document at once: growing one by one reallocated it
        // at each new depth.
        outer.reserveCapacity(8)
        var index = Int(object)
        while true {
            let entry = entries[index]
            index &+= 1
            switch entry.kind {
            case .null: try writer.writeNull()
            case .falseValue: try writer.writeBool(false)
            case .trueValue: try writer.writeBool(true)
            case .integer: try writer.writeInteger(Int64(bitPattern: entry.payload))
            case .float: try writer.writeFloat(Double(bitPattern: entry.payload))
            case .numberText: try writer.writeNumber(strings[Int(truncatingIfNeeded: entry.payload)])
            case .plainString:
                try writer.writeString(UnsafeBufferPointer(start: bytes + Int(truncatingIfNeeded: entry.payload),
                                                           count: Int(entry.length)))
            case .decodedString:
                var text = strings[Int(truncatingIfNeeded: entry.payload)]
                try text.withUTF8Bytes { (utf8) throws(FormatError) in try writer.writeString(utf8) }
            case .array, .object:
                let opensObject = entry.kind == .object
                let count = Int(entry.length)
                if opensObject { try writer.beginObject(count: count) } else { try writer.beginArray(count: count) }
                if count > 0 {
                    if remaining > 0 { outer.append((remaining, isObject)) }
                    remaining = count
                    isObject = opensObject
                    if isObject { index = try writeKey(at: index, to: &writer) }
                    continue
                }
                if opensObject { try writer.endObject() } else { try writer.endArray() }
            }
            // A value is complete: close the containers it completes, then the next member's key.
            while remaining > 0 {
                remaining &-= 1
                if remaining > 0 {
                    if isObject { index = try writeKey(at: index, to: &writer) }
                    break
                }
                if isObject { try writer.endObject() } else { try writer.endArray() }
                if let next = outer.popLast() { (remaining, isObject) = next }
            }
            if remaining == 0 { return }
        }
    }

    /// Writes the key entry at `index` and returns the index of the member's value. Always inlined
    /// into the walk, once per member (kept: the gated transcodes measure it, see
    /// Benchmarks/Gate/kept-shortcuts.md).
    @inlinable @inline(__always)
    func writeKey<W: ValueEventWriter>(at index: Int, to writer: inout W) throws(FormatError) -> Int {
        let entry = entries[index]
        if entry.kind == .plainString {
            try writer.writeKey(UnsafeBufferPointer(start: bytes + Int(truncatingIfNeeded: entry.payload),
                                                    count: Int(entry.length)))
        } else {
            var text = strings[Int(truncatingIfNeeded: entry.payload)]
            try text.withUTF8Bytes { (utf8) throws(FormatError) in try writer.writeKey(utf8) }
        }
        return index &+ 1
    }
}
