/// The map keys of at most 15 bytes a binary reader has made in one decode, found again by their bytes: documents
/// repeat their keys, and a key read before is the same string again, neither checked nor made anew. The CBOR and
/// MessagePack readers share it.
///
/// A direct-mapped table of 256 keys: a key whose slot holds another replaces it. Its entries are strings that fit in
/// a `String` inline, so the table keeps no storage alive; it lives as long as the reader.
///
/// Kept, see Benchmarks/Gate/kept-shortcuts.md; left out of small inputs, where filling it costs more than it saves.
/// Its methods are `@inlinable` for the same reason as `BinaryInput`'s: the readers call them for every key, from
/// other modules.
@usableFromInline
package struct RecentKeys {
    @usableFromInline
    struct Entry {
        /// The key's first eight bytes, zero beyond its length (little-endian order).
        @usableFromInline var low: UInt64
        /// The key's bytes 8–14 likewise, and its length in the top byte.
        @usableFromInline var high: UInt64
        @usableFromInline var key: String

        @usableFromInline
        init(low: UInt64, high: UInt64, key: String) {
            self.low = low
            self.high = high
            self.key = key
        }
    }

    /// Every slot starts as the empty key, whose bytes are all zero.
    @usableFromInline var entries = [Entry](repeating: Entry(low: 0, high: 0, key: ""), count: 256)

    package init() {}

    /// The table for reading `inputCount` bytes, or `nil` where the input is too small for keys to repeat often enough
    /// to pay for the table (a body of a few records, as servers and gateways decode per request).
    package static func forInput(ofCount inputCount: Int) -> RecentKeys? {
        inputCount >= 16 * 1024 ? RecentKeys() : nil
    }

    /// The key whose UTF-8 bytes are the `count` bytes at `offset` of `bytes` (which holds them): the one kept for the
    /// same bytes, or the one `make` makes of them (checking them), which is then kept. `nil`, without calling `make`,
    /// for a key longer than 15 bytes.
    @inlinable
    package mutating func key(
        in bytes: UnsafeBufferPointer<UInt8>, at offset: Int, count: Int,
        make: (Slice<UnsafeBufferPointer<UInt8>>) throws(FormatError) -> String
    ) throws(FormatError) -> String? {
        guard count <= 15, let base = bytes.baseAddress else { return nil }
        var low: UInt64 = 0, high: UInt64 = 0
        if offset <= bytes.count &- 16 {
            // Both words read whole, the bytes beyond the key cleared.
            let raw = UnsafeRawPointer(base + offset)
            low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            if count < 8 {
                low &= ~(UInt64.max &<< UInt64(8 &* count))
                high = 0
            } else {
                high &= ~(UInt64.max &<< UInt64(8 &* (count &- 8)))
            }
        } else {
            (low, high) = Self.words(of: UnsafeBufferPointer(start: base + offset, count: count))
        }
        high |= UInt64(count) &<< 56
        let slot = Int(truncatingIfNeeded: (((low &* 0x9E37_79B9_7F4A_7C15) ^ high) &* 0x9E37_79B9_7F4A_7C15) >> 56)
        if entries[slot].low == low && entries[slot].high == high { return entries[slot].key }
        let key = try make(bytes[offset..<(offset + count)])
        entries[slot] = Entry(low: low, high: high, key: key)
        return key
    }

    /// The words of a key too near the end of the input to read whole: its bytes alone, copied (kept out of line,
    /// so `key(in:at:count:make:)` stays small enough to inline).
    @usableFromInline
    static func words(of key: UnsafeBufferPointer<UInt8>) -> (low: UInt64, high: UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(key)) }
        return (UInt64(littleEndian: words.0), UInt64(littleEndian: words.1))
    }
}
