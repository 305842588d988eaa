extension Array where Element == UInt8 {
    /// Appends the low `width` bytes of `value`, most significant first: the heads, lengths and fixed-width
    /// numbers of the binary formats' writers.
    ///
    /// `@inlinable`: the writers call it for most items, and across modules an ordinary call is never inlined.
    @inlinable
    package mutating func appendBigEndian(_ value: UInt64, width: Int) {
        var shift = (width - 1) * 8
        while shift >= 0 {
            append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }
}
