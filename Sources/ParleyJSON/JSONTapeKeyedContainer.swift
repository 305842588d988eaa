import Parley

/// The keyed container of ``JSONTapeDecoder``: an object's members on the tape.
///
/// Keys are compared with the member's bytes in the input, so looking a member up creates no
/// string. When keys repeat, the last member wins, as with `ValueDecoder`.
///
/// Objects up to 16 members are searched without an index. The first lookup gathers every key's
/// hash (computed from its bytes) into two 64-bit masks (hashes seen once, hashes seen more than
/// once). A name whose hash no key has is absent at once; a name whose hash exactly one key has
/// matches at most one member, so the search stops at the first match and starts where the last one
/// ended (types decode their keys in the order servers write them); only names sharing a hash with
/// several keys take a full scan for the last match. Larger objects get a key index on the first
/// lookup. The masks and cursor, and the `@inline(__always)` of the tape decoder, its containers
/// and `ValueDecoder`'s primitive conversions (one group): kept, see Benchmarks/Gate/kept-shortcuts.md.
final class JSONTapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONTapeDecoder
    let tape: JSONTape
    /// The object's entry.
    let object: Int
    let memberCount: Int
    let pathCount: Int
    let nestedKeys: [any CodingKey]
    /// Key → value entry, built on first use for objects with more than `linearSearchLimit` members.
    private var index: [String: Int]?
    /// Key hashes that exactly one member has, and that several members have; built on first use.
    private var hashedOnce: UInt64 = 0
    private var hashedMore: UInt64 = 0
    private var hashesBuilt = false
    /// The key entry after the last member found, where the next search starts.
    private var cursor: Int
    private var cursorMember = 0

    static var linearSearchLimit: Int { 16 }

    init(decoder: JSONTapeDecoder, object: Int, pathCount: Int, nestedKeys: [any CodingKey]) {
        self.decoder = decoder
        self.tape = decoder.tape
        self.object = object
        self.memberCount = Int(decoder.tape.entries[object].length)
        self.cursor = object + 1
        self.pathCount = pathCount
        self.nestedKeys = nestedKeys
    }

    var codingPath: [any CodingKey] { decoder.path(pathCount, nestedKeys, nil) }

    /// Calls `body` with the key entry and value entry of each member in order.
    @inline(__always)
    func forEachMember(_ body: (_ key: Int, _ value: Int) throws -> Void) rethrows {
        try tape.forEachMember(of: object, body)
    }

    var allKeys: [Key] {
        var seen = Set<String>()
        var keys: [Key] = []
        forEachMember { key, _ in
            let name = tape.string(at: key)
            if seen.insert(name).inserted, let codingKey = Key(stringValue: name) { keys.append(codingKey) }
        }
        return keys
    }

    /// The value entry of the last member named `key`.
    @inline(__always)
    func find(_ key: Key) -> Int? {
        if memberCount > Self.linearSearchLimit {
            return keyIndex()[key.stringValue]
        }
        var name = key.stringValue
        return name.withUTF8 { name -> Int? in
            if !hashesBuilt { buildHashes() }
            let bit: UInt64 = 1 << JSONTape.keyHash(name)
            if hashedOnce & bit != 0 { return onlyMember(named: name) }
            if hashedMore & bit != 0 { return tape.lastMember(of: object, named: name) }
            return nil
        }
    }

    private func buildHashes() {
        var once: UInt64 = 0
        var more: UInt64 = 0
        var key = object &+ 1
        for _ in 0..<memberCount {
            let bit: UInt64 = 1 << tape.keyHash(at: key)
            if (once | more) & bit != 0 {
                more |= bit
                once &= ~bit
            } else {
                once |= bit
            }
            key = tape.next(after: key &+ 1)
        }
        hashedOnce = once
        hashedMore = more
        hashesBuilt = true
    }

    /// The value entry of the one member that can be named `name`, searched from the cursor
    /// round to where it started.
    @inline(__always)
    private func onlyMember(named name: UnsafeBufferPointer<UInt8>) -> Int? {
        var key = cursor
        var member = cursorMember
        for _ in 0..<memberCount {
            if member == memberCount {
                key = object + 1
                member = 0
            }
            let value = key + 1
            let next = tape.next(after: value)
            if tape.key(at: key, equals: name) {
                cursor = next
                cursorMember = member + 1
                return value
            }
            key = next
            member += 1
        }
        return nil
    }

    private func keyIndex() -> [String: Int] {
        if let index { return index }
        var built = [String: Int](minimumCapacity: memberCount)
        forEachMember { key, value in built[tape.string(at: key)] = value }
        index = built
        return built
    }

    @inline(__always)
    func require(_ key: Key) throws -> Int {
        if let value = find(key) { return value }
        throw DecodingError.keyNotFound(
            key,
            .init(
                codingPath: codingPath,
                debugDescription: "No value associated with key '\(key.stringValue)'."))
    }

    func path(_ key: Key) -> [any CodingKey] { decoder.path(pathCount, nestedKeys, key) }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { tape.entries[try require(key)].kind == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.options.bool(try value(key), path: path(key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let member = try require(key)
        if let string = tape.stringIfString(at: member) { return string }
        return try decoder.options.string(tape.scalar(at: member), path: path(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.options.double(try value(key), path: { self.path(key) })
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.options.float(try value(key), path: { self.path(key) })
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    /// The scalar value of the member named `key`.
    @inline(__always)
    func value(_ key: Key) throws -> Value { tape.scalar(at: try require(key)) }

    @inline(__always)
    func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
        try decoder.options.integer(try value(key), as: T.self, path: { self.path(key) })
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unwrap(try require(key), as: T.self, pathCount: pathCount, nestedKeys: nestedKeys, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let member = try require(key)
        try decoder.expect(.object, at: member, path: path(key))
        return KeyedDecodingContainer(JSONTapeKeyedContainer<NestedKey>(
            decoder: decoder, object: member, pathCount: pathCount, nestedKeys: nestedKeys + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let member = try require(key)
        try decoder.expect(.array, at: member, path: path(key))
        return JSONTapeUnkeyedContainer(
            decoder: decoder, array: member, pathCount: pathCount, nestedKeys: nestedKeys + [key])
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(key: CodingIndexKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(key: key)
    }

    /// A decoder of the member named `key`; `null` when there is none (as `ValueDecoder` does).
    private func superDecoder(key: any CodingKey) throws -> any Decoder {
        let path = decoder.path(pathCount, nestedKeys, key)
        let member = tape.lastMember(of: object, named: key.stringValue)
        guard let member else { return decoder.options.decoder(for: .null, codingPath: path) }
        return JSONTapeDecoder(tape: tape, index: member, codingPath: path, options: decoder.options)
    }
}
