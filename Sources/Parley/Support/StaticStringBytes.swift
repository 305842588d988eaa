/// Literal text as bytes, for the parsers and writers that recognise and write keywords and tags
/// without building strings. `@inlinable` for the same reason as `BinaryInput`'s methods: parsers
/// and writers in other modules call them for every tag or scalar. The comparisons are also
/// `@inline(__always)`: a reader tries several names per tag, and the optimizer left those calls
/// out of line (kept, see Benchmarks/Gate/kept-shortcuts.md).
extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes from `offset` on begin with `text`.
    @inlinable @inline(__always)
    package func matches(_ text: StaticString, at offset: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard offset >= 0, length <= count &- offset else { return false }
        let expected = text.utf8Start
        for k in 0..<length where self[offset &+ k] != expected[k] { return false }
        return true
    }

    /// Whether these bytes are exactly `text`.
    @inlinable @inline(__always)
    package func equals(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && matches(text, at: 0)
    }
}

extension Array<UInt8> {
    /// Appends the UTF-8 bytes of the literal `text`.
    @inlinable
    package mutating func append(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}

extension RecordBuffer<UInt8> {
    /// Appends the UTF-8 bytes of the literal `text`.
    @inlinable
    package mutating func append(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
