/// The names of a schema's `properties`, found from a member name's UTF-8 bytes without making a
/// `String`: an ASCII member name equals an ASCII property name exactly when their bytes are
/// equal, so ASCII names sit in a small open-addressing table keyed by a hash of their bytes.
/// Every other comparison is `String` equality (canonical equivalence), so a lookup answers
/// what `names.firstIndex(of:)` would.
struct PropertyNames: Sendable {
    /// One ASCII name in the table: its position in `names`, hash, and bytes in `bytes`.
    private struct Slot {
        var position: Int32 = -1
        var length: Int32 = 0
        var start: Int32 = 0
        var hash: UInt32 = 0
    }

    /// The names, in the schema's order.
    let names: [String]
    /// The ASCII names' bytes one after another.
    private let bytes: [UInt8]
    /// The ASCII names by hash (position -1: an empty slot); a power of two long.
    private let slots: [Slot]
    /// The positions of the names that are not ASCII (an ASCII member name may still equal one,
    /// as "K" equals the Kelvin sign), in order.
    private let nonASCII: [Int]

    init(_ names: [String]) {
        self.names = names
        var bytes: [UInt8] = []
        var nonASCII: [Int] = []
        var size = 4
        while size < names.count * 2 { size *= 2 }
        var slots = [Slot](repeating: Slot(), count: size)
        for (position, name) in names.enumerated() {
            guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
                nonASCII.append(position)
                continue
            }
            let key = Array(name.utf8)
            let hash = key.withUnsafeBufferPointer { Self.hashAndASCII($0).hash }
            var slot = Int(hash) & (size - 1)
            while slots[slot].position >= 0 && names[Int(slots[slot].position)] != name {
                slot = (slot + 1) & (size - 1)
            }
            // A repeated name keeps its first position, the one a member matches.
            guard slots[slot].position < 0 else { continue }
            slots[slot] = Slot(
                position: Int32(position), length: Int32(key.count), start: Int32(bytes.count), hash: hash)
            bytes.append(contentsOf: key)
        }
        self.bytes = bytes
        self.slots = slots
        self.nonASCII = nonASCII
    }

    /// The position of the first name equal to `name`.
    func first(_ name: String) -> Int? {
        if let found = name.utf8.withContiguousStorageIfAvailable({ first(utf8: $0, name) }) { return found }
        return names.firstIndex(of: name)
    }

    /// The position of the first name equal to the text whose UTF-8 bytes are `key`; `string`
    /// makes that text, needed only when `key` is not ASCII or some names are not.
    func first(utf8 key: UnsafeBufferPointer<UInt8>, _ string: @autoclosure () -> String) -> Int? {
        let (hash, isASCII) = Self.hashAndASCII(key)
        guard isASCII else { return names.firstIndex(of: string()) }
        let found = slots.withUnsafeBufferPointer { slots -> Int? in
            let mask = slots.count &- 1
            var slot = Int(hash) & mask
            while true {
                let entry = slots[slot]
                if entry.position < 0 { return nil }
                if entry.hash == hash && Int(entry.length) == key.count && equal(key, at: Int(entry.start)) {
                    return Int(entry.position)
                }
                slot = (slot &+ 1) & mask
            }
        }
        if !nonASCII.isEmpty {
            let text = string()
            for position in nonASCII where position < found ?? names.count && names[position] == text {
                return position
            }
        }
        return found
    }

    /// Whether `key` is the `key.count` bytes of `bytes` from `start`.
    private func equal(_ key: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            for i in 0..<key.count where key[i] != bytes[start &+ i] { return false }
            return true
        }
    }

    /// FNV-1a over the bytes, and whether they are all ASCII.
    private static func hashAndASCII(_ key: UnsafeBufferPointer<UInt8>) -> (hash: UInt32, isASCII: Bool) {
        var hash: UInt32 = 0x811C_9DC5
        var high: UInt8 = 0
        for byte in key {
            hash = (hash ^ UInt32(byte)) &* 0x0100_0193
            high |= byte
        }
        return (hash, high < 0x80)
    }
}
