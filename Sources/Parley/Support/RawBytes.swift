/// Copies and comparisons of short runs of bytes (keys, short strings, indents) without a call to
/// the C library: up to 16 bytes move as two loads and two stores that overlap when the count is
/// not a power of two. Kept: for the writers' keys and strings and for the validator's property
/// names, the library's call was most of what copying or comparing one cost; and always inlined,
/// since the writers call them for every key and string and a call of their own costs as much.
@usableFromInline
package enum RawBytes {
    /// Copies `count` bytes, at most 16, from `source` to `target` (which must not overlap).
    @inlinable @inline(__always)
    package static func copyShort(_ source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) {
        if count >= 8 {
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
        } else if count > 0 {
            // The first, middle and last bytes: all of one to three.
            let first = source.load(as: UInt8.self)
            let middle = source.load(fromByteOffset: count >> 1, as: UInt8.self)
            let last = source.load(fromByteOffset: count &- 1, as: UInt8.self)
            target.storeBytes(of: first, as: UInt8.self)
            target.storeBytes(of: middle, toByteOffset: count >> 1, as: UInt8.self)
            target.storeBytes(of: last, toByteOffset: count &- 1, as: UInt8.self)
        }
    }

    /// Whether the `count` bytes at `a` and at `b` are equal: up to 16 compared as
    /// ``copyShort(_:to:count:)`` copies them, longer runs eight at a time.
    @inlinable @inline(__always)
    package static func areEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        switch count {
        case 8...16:
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        case 4..<8:
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
        case 1..<4:
            let middle = count >> 1, last = count &- 1
            return a.load(as: UInt8.self) == b.load(as: UInt8.self)
                && a.load(fromByteOffset: middle, as: UInt8.self) == b.load(fromByteOffset: middle, as: UInt8.self)
                && a.load(fromByteOffset: last, as: UInt8.self) == b.load(fromByteOffset: last, as: UInt8.self)
        case ...0:
            return true
        default:
            // Eight at a time, the last word overlapping the one before it.
            var offset = 0
            while offset &+ 8 < count {
                if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
                offset &+= 8
            }
            return a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
    }

    /// Whether the bytes of `a` and `b` are equal.
    @inlinable
    package static func areEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress else { return true }
        return areEqual(UnsafeRawPointer(left), UnsafeRawPointer(right), count: a.count)
    }
}
