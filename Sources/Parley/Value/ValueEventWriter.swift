/// Takes a value's parts in document order, as a decoder's own parse holds them: what lets an
/// encoder write an object that builds its members on demand (``Value/Object/isDeferred``)
/// straight from the document it was parsed into, without building its members as values
/// (``Value/Object/writeDeferredEvents(to:)``).
///
/// A writer must produce exactly what it produces for the same value walked as a tree: the
/// events are the tree's parts, in the same order. An array or object with `count` children is
/// `begin…(count:)`, its children (each member a key, then its value), then `end…()`; an empty
/// one is its begin and end with nothing between.
@usableFromInline
package protocol ValueEventWriter {
    /// Called before the events of each object of a document that was `byteCount` bytes long
    /// (once for a document that is one object): room for the output the whole document is
    /// likely to make, so the output does not grow (and move) as it is written.
    mutating func prepare(forDocumentOf byteCount: Int)
    mutating func writeNull() throws(FormatError)
    mutating func writeBool(_ bool: Bool) throws(FormatError)
    mutating func writeInteger(_ integer: Int64) throws(FormatError)
    mutating func writeFloat(_ float: Double) throws(FormatError)
    /// Exact number text (``Value/number(_:)``).
    mutating func writeNumber(_ text: String) throws(FormatError)
    /// A string as its UTF-8 bytes (valid UTF-8), readable during the call only.
    mutating func writeString(_ utf8: UnsafeBufferPointer<UInt8>) throws(FormatError)
    mutating func beginArray(count: Int) throws(FormatError)
    mutating func endArray() throws(FormatError)
    mutating func beginObject(count: Int) throws(FormatError)
    /// A member's key as its UTF-8 bytes (valid UTF-8), readable during the call only.
    mutating func writeKey(_ utf8: UnsafeBufferPointer<UInt8>) throws(FormatError)
    mutating func endObject() throws(FormatError)
    /// Any other value, whole (a document whose parts are not all of the kinds above).
    mutating func writeValue(_ value: Value) throws(FormatError)
}

extension Value.Object {
    /// Writes this object, everything nested in it included, to `writer` straight from the
    /// document it was parsed into, and returns `true`; returns `false`, writing nothing, when
    /// the object holds built members or its document has no tape (``DeferredObjectDocument/valueTape``).
    /// Inlinable, so the walk is specialised for `writer`'s type.
    @inlinable
    package func writeDeferredEvents<W: ValueEventWriter>(to writer: inout W) throws(FormatError) -> Bool {
        try withValueTape { (tape, object) throws(FormatError) in try tape.writeEvents(of: object, to: &writer) }
    }

    /// Calls `body` with the tape of the document this object was parsed into and the object's
    /// entry in it, and returns `true`; returns `false`, calling nothing, when the object holds
    /// built members or its document has no tape (``DeferredObjectDocument/valueTape``). For an
    /// encoder that walks the tape its own way; the tape is valid during the call only.
    @inlinable
    package func withValueTape(_ body: (ValueTape, UInt32) throws(FormatError) -> Void) throws(FormatError) -> Bool {
        guard let (document, object) = deferredDocument, let tape = document.valueTape else { return false }
        // The tape's pointers are the document's memory: it lives until the call is over.
        try withExtendedLifetime(document) { () throws(FormatError) in try body(tape, object) }
        return true
    }
}

extension String {
    /// `withUTF8` for a body that throws ``FormatError`` alone.
    @usableFromInline
    package mutating func withUTF8Bytes(
        _ body: (UnsafeBufferPointer<UInt8>) throws(FormatError) -> Void
    ) throws(FormatError) {
        var failure: FormatError?
        withUTF8 { utf8 in
            do throws(FormatError) { try body(utf8) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
