// Public: the tape is `@usableFromInline`, so the Parley types its inlinable accessors name must be too.
public import Parley

/// A validated JSON text as one flat list of entries, for decoding Codable types without a
/// value tree.
///
/// Every value is one entry, in document order; an object's members are its key (a string
/// entry) followed by its value. A container's entry records how many elements or members it
/// has and where the entry after its last descendant is, so a reader skips a whole subtree in
/// one step. Strings stay bytes in the tape's copy of the input until a decoder asks for them
/// (strings with escapes are decoded in place, over their escapes, while the tape is built);
/// number text that fits no binary type is kept as a `String`.
///
/// `@unchecked Sendable`: every property is a `let`, and the unsafe parts, the tape's own copy
/// of the input and its entries, are written before `init` and only read after it, until
/// `deinit` frees them, except that ``reparse(_:options:limits:offsetBase:)`` writes the next
/// document into a tape its caller holds the only reference to (so no other thread can be
/// reading it).
@usableFromInline
package final class JSONTape: @unchecked Sendable {
    /// What an entry holds (``ValueTapeEntry/Kind``: the layout encoders walk, `Parley`'s).
    @usableFromInline package typealias Kind = ValueTapeEntry.Kind

    /// One value, or one object key.
    @usableFromInline package typealias Entry = ValueTapeEntry

    /// The input's UTF-8 bytes, with the strings that had escapes decoded in place (owned:
    /// decoders made from this tape may outlive the caller's buffer), then the parser's zero
    /// padding: all the memory, which a reused tape's next document may fill further.
    @usableFromInline let bytes: UnsafeMutableBufferPointer<UInt8>
    /// The byte count of the text ``parse(_:options:limits:offsetBase:sizedAfter:)`` read (not
    /// updated by ``reparse(_:options:limits:offsetBase:)``, whose documents are never walked as
    /// values): what an encoder of the whole document sizes its output from.
    let textCount: Int
    /// The entries, in the memory they were written into: all of it (past the document's
    /// entries it is uninitialized), which a reused tape's next document may fill further.
    @usableFromInline let entries: UnsafeBufferPointer<Entry>
    /// Exact number text, and strings too long for an entry's `length`.
    @usableFromInline let strings: [String]
    /// The key entries of the objects with more than ``walkLimit`` members, so that finding
    /// their members by position takes one step.
    let largeObjectKeys: LargeObjectKeys

    /// The key entries of each object over ``JSONTape/walkLimit`` members.
    struct LargeObjectKeys {
        /// Where in ``keys`` each such object's key entries start, by the object's entry.
        var firstKey: [UInt32: Int] = [:]
        /// The key entries of those objects, an object's together in order.
        var keys: [UInt32] = []
    }

    init(bytes: UnsafeMutableBufferPointer<UInt8>, textCount: Int, entries: UnsafeMutableBufferPointer<Entry>,
         strings: [String], largeObjectKeys: LargeObjectKeys) {
        self.bytes = bytes
        self.textCount = textCount
        self.entries = UnsafeBufferPointer(entries)
        self.strings = strings
        self.largeObjectKeys = largeObjectKeys
    }

    deinit {
        bytes.deallocate()
        JSONTapeEntryBuffer.deallocate(UnsafeMutablePointer(mutating: entries.baseAddress!))
    }

    /// What a whole JSON text parses to.
    enum Document {
        case tape(JSONTape)
        /// A blank body, and the value `JSONFormat/Options/blankBody` gives it.
        case blank(Value)
    }

    /// Parses a whole JSON text (UTF-8, byte-order mark already skipped) into a tape, by the
    /// rules, limits and errors of `JSONFormat`'s decoder.
    ///
    /// With `previous`, the tape of the document before (which this call neither reads nor
    /// writes), the new tape is made for ``reparse(_:options:limits:offsetBase:)``: with as much
    /// memory as `previous` had, or twice that when the text does not fit it, up to
    /// ``reusableByteLimit`` (a longer text gets memory for itself alone, as without `previous`).
    static func parse(_ text: UnsafeBufferPointer<UInt8>, options: JSONFormat.Options, limits: DecodingLimits,
                      offsetBase: Int, sizedAfter previous: JSONTape? = nil) throws(FormatError) -> Document {
        var byteCapacity = text.count &+ JSONParser.padding
        var isReusable = false
        if let previous {
            let previousCapacity = previous.bytes.count
            let reusableCapacity = max(
                byteCapacity, byteCapacity > previousCapacity ? 2 * previousCapacity : previousCapacity)
            if reusableCapacity <= Self.reusableByteLimit {
                byteCapacity = reusableCapacity
                isReusable = true
            }
        }
        // The copy is followed by the zeros the parser may read past the text (`JSONParser/padding`).
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: byteCapacity)
        var parser = JSONParser(bytes: copy.copying(text), source: text, limits: limits, offsetBase: offsetBase)
        do {
            if let blank = try parser.beginDocument(options) {
                copy.deallocate()
                return .blank(blank)
            }
            // A tape made to be reused gets room for as many entries as any text that fits its
            // copy can have (``reparse``).
            let parts = try isReusable
                ? parser.parseTape(into: JSONTapeEntryBuffer(capacity: Self.maxEntries(forText: byteCapacity)))
                : parser.parseTape()
            try parser.endDocument()
            return .tape(JSONTape(bytes: copy, textCount: text.count, entries: parts.entries.take(),
                                  strings: parts.strings, largeObjectKeys: parts.largeObjectKeys))
        } catch {
            copy.deallocate()
            throw error
        }
    }

    /// The most memory, in bytes of text, that a tape is made with for reuse: its entries take
    /// eight times that (``maxEntries(forText:)`` of 16-byte entries), so a longer text gets
    /// memory for itself alone, as without reuse.
    static var reusableByteLimit: Int { 1 << 16 }

    /// The most entries a JSON text of `count` bytes can have: each value takes a byte and
    /// each further element or member a comma (`[1,1]`: 5 bytes, 3 entries; `[[1]]`: 5 bytes,
    /// 3 entries), so at most (`count` + 1) / 2.
    static func maxEntries(forText count: Int) -> Int {
        count / 2 &+ 1
    }

    /// What ``reparse(_:options:limits:offsetBase:)`` did.
    enum Reparse {
        /// The tape holds the document.
        case parsed
        /// A blank text, and the value `JSONFormat/Options/blankBody` gives it.
        case blank(Value)
        /// The document needs more than the tape can hold (before or after parsing it): parse
        /// it into a new tape.
        case doesNotFit
    }

    /// ``parse(_:options:limits:offsetBase:sizedAfter:)`` into this tape's memory, which the
    /// caller holds the only reference to (it checked), so that a caller that parses many small
    /// documents one after another (the command-line tool's batch lines) allocates nothing per
    /// document. Parsing, and what it throws, is the same as a fresh parse; after a throw or
    /// ``Reparse/doesNotFit``, the tape holds no document (it must not be read) but can be
    /// reparsed again. What it returns holds no reference to the tape, so a document costs no
    /// retain and release of it.
    func reparse(_ text: UnsafeBufferPointer<UInt8>, options: JSONFormat.Options, limits: DecodingLimits,
                 offsetBase: Int) throws(FormatError) -> Reparse {
        // Entries for the longest text that fits: the parser never has to grow them (a borrowed
        // buffer traps rather than reallocate this tape's memory).
        guard text.count &+ JSONParser.padding <= bytes.count, entries.count >= Self.maxEntries(forText: text.count),
              strings.isEmpty, largeObjectKeys.keys.isEmpty else {
            return .doesNotFit
        }
        var parser = JSONParser(bytes: bytes.copying(text), source: text, limits: limits, offsetBase: offsetBase)
        if let blank = try parser.beginDocument(options) { return .blank(blank) }
        let parts = try parser.parseTape(into: JSONTapeEntryBuffer(
            borrowing: UnsafeMutablePointer(mutating: entries.baseAddress!), capacity: entries.count))
        guard parts.strings.isEmpty, parts.largeObjectKeys.keys.isEmpty else { return .doesNotFit }
        try parser.endDocument()
        return .parsed
    }

    // The accessors a schema validator calls per entry are inlinable, so other modules read the
    // entries in place; a package class's inlinable members are only inlined into other modules
    // when the class is also `@usableFromInline` (kept, see Benchmarks/Gate/kept-shortcuts.md).

    /// What the entry at `index` holds.
    @inlinable
    package func kind(at index: Int) -> Kind { entries[index].kind }

    /// The element count of the array, or the member count of the object, at `index`.
    @inlinable
    package func count(at index: Int) -> Int { Int(entries[index].length) }

    /// The index of the entry after the value at `index` and everything nested in it.
    @inlinable
    package func next(after index: Int) -> Int {
        let entry = entries[index]
        switch entry.kind {
        case .array, .object: return Int(truncatingIfNeeded: entry.payload)
        default: return index &+ 1
        }
    }

    /// Calls `body` with the position and entry of each element of the array at `array`.
    func forEachElement(of array: Int, _ body: (_ position: Int, _ element: Int) throws -> Void) rethrows {
        var element = array &+ 1
        for position in 0..<Int(entries[array].length) {
            try body(position, element)
            element = next(after: element)
        }
    }

    /// Calls `body` with the key entry and value entry of each member of the object at `object`.
    func forEachMember(of object: Int, _ body: (_ key: Int, _ value: Int) throws -> Void) rethrows {
        var key = object &+ 1
        for _ in 0..<Int(entries[object].length) {
            try body(key, key &+ 1)
            key = next(after: key &+ 1)
        }
    }

    /// The string of a string entry.
    package func string(at index: Int) -> String {
        let entry = entries[index]
        switch entry.kind {
        case .plainString:
            let start = bytes.baseAddress! + Int(truncatingIfNeeded: entry.payload)
            return String(utf8: UnsafeBufferPointer(start: start, count: Int(entry.length)))
        default:
            return strings[Int(truncatingIfNeeded: entry.payload)]
        }
    }

    /// Calls `body` with the UTF-8 bytes of the entry at `index` when it is a string, without
    /// making a `String`; `nil` when it is not a string.
    func withStringBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        let entry = entries[index]
        let start = Int(truncatingIfNeeded: entry.payload)
        switch entry.kind {
        case .plainString:
            return try body(UnsafeRawBufferPointer(start: bytes.baseAddress! + start, count: Int(entry.length)))
        case .decodedString:
            var text = strings[start]
            return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        default:
            return nil
        }
    }

    /// The string of the entry at `index`, or `nil` when it is not a string.
    package func stringIfString(at index: Int) -> String? {
        switch entries[index].kind {
        case .plainString, .decodedString: string(at: index)
        default: nil
        }
    }

    /// The UTF-8 bytes of the string entry at `index` when they are in the tape's copy of the
    /// text (a string not too long for an entry's `length`), valid while the tape is; `nil`
    /// otherwise.
    @inlinable
    package func plainStringBytes(at index: Int) -> UnsafeBufferPointer<UInt8>? {
        let entry = entries[index]
        guard entry.kind == .plainString else { return nil }
        return UnsafeBufferPointer(start: bytes.baseAddress! + Int(truncatingIfNeeded: entry.payload),
                                   count: Int(entry.length))
    }

    /// Whether the key entry at `index` spells `name` (given as its UTF-8 bytes).
    func key(at index: Int, equals name: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entries[index]
        switch entry.kind {
        case .plainString:
            let start = bytes.baseAddress! + Int(truncatingIfNeeded: entry.payload)
            return RawBytes.areEqual(UnsafeBufferPointer(start: start, count: Int(entry.length)), name)
        default: break
        }
        var key = strings[Int(truncatingIfNeeded: entry.payload)]
        return key.withUTF8 { RawBytes.areEqual($0, name) }
    }

    /// The value entry of the last member of the object at `object` whose key spells `name`
    /// (given as its UTF-8 bytes), by a linear search; keys of another length are passed over
    /// without comparing their bytes.
    func lastMember(of object: Int, named name: UnsafeBufferPointer<UInt8>) -> Int? {
        var found: Int?
        forEachMember(of: object) { key, value in
            if self.key(at: key, equals: name) { found = value }
        }
        return found
    }

    /// ``lastMember(of:named:)`` for a name given as a string.
    package func lastMember(of object: Int, named name: String) -> Int? {
        var name = name
        return name.withUTF8 { lastMember(of: object, named: $0) }
    }

    /// ``keyHash(_:)`` of the key (string) entry at `index`.
    func keyHash(at index: Int) -> UInt8 {
        let entry = entries[index]
        if entry.kind == .plainString {
            return Self.keyHash(UnsafeBufferPointer(start: bytes.baseAddress! + Int(truncatingIfNeeded: entry.payload),
                                                    count: Int(entry.length)))
        }
        return decodedKeyHash(at: index)
    }

    /// ``keyHash(at:)`` of a key too long for an entry's `length`.
    private func decodedKeyHash(at index: Int) -> UInt8 {
        var key = strings[Int(truncatingIfNeeded: entries[index].payload)]
        return key.withUTF8 { Self.keyHash($0) }
    }

    /// A 6-bit hash of a key's bytes (its length and first, middle and last bytes), for the
    /// keyed container's membership masks.
    static func keyHash(_ key: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var h = UInt64(key.count) &* 0x9E37_79B9_7F4A_7C15
        if let first = key.first, let last = key.last {
            h ^= UInt64(first) | UInt64(last) << 8 | UInt64(key[key.count / 2]) << 16
        }
        h = (h ^ (h >> 29)) &* 0xBF58_476D_1CE4_E5B9
        return UInt8(truncatingIfNeeded: h >> 58)
    }

    /// The entry at `index` as a value: scalars exactly, arrays and objects as empty ones (for
    /// their kind only; Codable decoders read containers from the tape itself).
    package func scalar(at index: Int) -> Value {
        let entry = entries[index]
        switch entry.kind {
        case .null: return .null
        case .falseValue: return .bool(false)
        case .trueValue: return .bool(true)
        case .integer: return .integer(Int64(bitPattern: entry.payload))
        case .float: return .float(Double(bitPattern: entry.payload))
        case .numberText: return .number(strings[Int(truncatingIfNeeded: entry.payload)])
        case .plainString, .decodedString: return .string(string(at: index))
        case .array: return .array([])
        case .object: return .object(Value.Object())
        }
    }
}

extension UnsafeMutableBufferPointer<UInt8> {
    /// `text` copied to the start of this memory and followed by ``JSONParser/padding`` zero
    /// bytes (which this memory has room for): the part that holds the copy.
    fileprivate func copying(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeMutableBufferPointer<UInt8> {
        _ = initialize(fromContentsOf: text)
        self[text.count..<(text.count &+ JSONParser.padding)].initialize(repeating: 0)
        return UnsafeMutableBufferPointer(rebasing: self[..<text.count])
    }
}
