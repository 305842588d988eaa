import Parley

/// The names of a schema's `properties`, found from a member name's UTF-8 bytes without making a
/// `String`: an ASCII member name equals an ASCII property name exactly when their bytes are
/// equal, so ASCII names sit in a small open-addressing table keyed by a hash of their bytes.
/// Every other comparison is `String` equality (canonical equivalence), so a lookup answers
/// what `names.firstIndex(of:)` would. Its bytes are read eight at a time (kept, see
/// Benchmarks/Gate/kept-shortcuts.md).
struct PropertyNames: Sendable {
    /// One ASCII name in the table: its position in `names`, hash, and bytes in `bytes`.
    private struct Slot {
        var position: Int32 = -1
        var length: Int32 = 0
        var start: Int32 = 0
        var hash: UInt32 = 0
    }

    /// What a lookup by bytes found.
    enum Found {
        case at(Int)
        case absent
        /// It takes a `String` to tell: the key or one of the names is not ASCII.
        case undecided
    }

    /// The names, in the schema's order.
    let names: [String]
    /// The ASCII names' bytes one after another.
    private let bytes: [UInt8]
    /// The ASCII names by hash (position -1: an empty slot); a power of two long.
    private let slots: [Slot]
    /// Whether every name is ASCII (an ASCII member name may equal one that is not, as "K"
    /// equals the Kelvin sign).
    private let allASCII: Bool

    init(_ names: [String]) {
        self.names = names
        var bytes: [UInt8] = []
        var allASCII = true
        var size = 4
        while size < names.count * 2 { size *= 2 }
        var slots = [Slot](repeating: Slot(), count: size)
        for (position, name) in names.enumerated() {
            var text = name
            let (hash, isASCII) = text.withUTF8 { Self.hashAndASCII($0) }
            guard isASCII else {
                allASCII = false
                continue
            }
            var slot = Int(hash) & (size - 1)
            while slots[slot].position >= 0 && names[Int(slots[slot].position)] != name {
                slot = (slot + 1) & (size - 1)
            }
            // A repeated name keeps its first position, the one a member matches.
            guard slots[slot].position < 0 else { continue }
            slots[slot] = Slot(
                position: Int32(position), length: Int32(name.utf8.count), start: Int32(bytes.count), hash: hash)
            bytes.append(contentsOf: name.utf8)
        }
        self.bytes = bytes
        self.slots = slots
        self.allASCII = allASCII
    }

    /// The position of the first name equal to `name`.
    func first(_ name: String) -> Int? {
        let found = name.utf8.withContiguousStorageIfAvailable { first(utf8: $0) }
        if case .at(let position)? = found { return position }
        if case .absent? = found { return nil }
        return names.firstIndex(of: name)
    }

    /// The position of the first name equal to the text whose UTF-8 bytes are `key`, when its
    /// bytes can tell.
    func first(utf8 key: UnsafeBufferPointer<UInt8>) -> Found {
        let (hash, isASCII) = Self.hashAndASCII(key)
        guard isASCII && allASCII else { return .undecided }
        guard let base = key.baseAddress else { return first(hash: hash, count: 0) { _ in true } }
        return first(hash: hash, count: key.count) { RawBytes.areEqual(UnsafeRawPointer(base), $0, count: key.count) }
    }

    /// The first name in the table with this hash and length whose bytes `matches`.
    private func first(hash: UInt32, count: Int, _ matches: (UnsafeRawPointer) -> Bool) -> Found {
        slots.withUnsafeBufferPointer { slots in
            bytes.withUnsafeBytes { bytes in
                let mask = slots.count &- 1
                var slot = Int(hash) & mask
                while true {
                    let entry = slots[slot]
                    if entry.position < 0 { return .absent }
                    if entry.hash == hash && Int(entry.length) == count
                        && (count == 0 || matches(bytes.baseAddress! + Int(entry.start)))
                    {
                        return .at(Int(entry.position))
                    }
                    slot = (slot &+ 1) & mask
                }
            }
        }
    }

    /// A hash of the bytes (their length and first and last bytes, read in at most four loads),
    /// and whether they are all ASCII (read eight at a time).
    private static func hashAndASCII(_ key: UnsafeBufferPointer<UInt8>) -> (hash: UInt32, isASCII: Bool) {
        guard let base = key.baseAddress else { return (0, true) }
        let raw = UnsafeRawPointer(base)
        let count = key.count
        // The first and last bytes, in two loads that overlap when the key is short: together
        // they hold every byte of a key of up to 16.
        let first: UInt64
        let last: UInt64
        var high: UInt64 = 0
        switch count {
        case 8...:
            first = raw.loadUnaligned(as: UInt64.self)
            last = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            var offset = 8
            while offset < count &- 8 {
                high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
        case 4...:
            first = UInt64(raw.loadUnaligned(as: UInt32.self))
            last = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
        case 2...:
            first = UInt64(raw.loadUnaligned(as: UInt16.self))
            last = UInt64(raw.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self))
        case 1:
            first = UInt64(key[0])
            last = 0
        default:
            first = 0
            last = 0
        }
        high |= first | last
        var hash = (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
        hash ^= hash >> 32
        return (UInt32(truncatingIfNeeded: hash), high & 0x8080_8080_8080_8080 == 0)
    }
}
