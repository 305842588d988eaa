import FoundationEssentials
import Parley

/// Writes `Value`s as CBOR with preferred serialization (RFC 8949 §4.1): the shortest head for
/// every integer, length and count, the shortest float that keeps the value, definite lengths.
/// Iterative (an explicit stack, never the machine stack); with
/// ``CBORFormat/Options-swift.struct/isDeterministic`` map keys are sorted by their encoded bytes.
struct CBORWriter: ~Copyable {
    let options: CBORFormat.Options
    /// The bytes written: appended without a uniqueness check, strings copied in one step.
    private var bytes = RecordBuffer<UInt8>(capacity: 256)

    /// An array, object or kept map being written, and the index of its next element; or one
    /// value written once everything above it on the stack is (a kept pair's value after its key).
    /// Frames stay in place while their index moves, so the arrays they hold are not retained
    /// and released for every element.
    private struct Frame {
        /// `sortedPairs` are a deterministic kept map's pairs, each key already encoded to sort them
        /// (`[.bytes(encoded key), value]`) and written as those bytes, so a key is encoded once
        /// however deeply maps nest as keys of maps.
        enum Kind { case array, object, pairs, sortedPairs, single }
        var kind: Kind
        /// Array elements, kept-map pairs (each `[key, value]`), or the single value.
        var values: [Value] = []
        var members: [Value.Object.Member] = []
        var next = 0

        var count: Int { kind == .object ? members.count : values.count }
    }

    init(options: CBORFormat.Options) {
        self.options = options
    }

    /// The bytes written.
    consuming func finish() -> [UInt8] {
        let written = bytes.take()
        defer { written.deallocate() }
        return Array(written)
    }

    mutating func write(_ root: Value) throws(FormatError) {
        // The innermost frame is `top`; the ones around it that still have elements wait on `stack`.
        guard var top = try writeItem(root) else { return }
        var stack: [Frame] = []
        while true {
            let next = top.next
            top.next = next + 1
            let isLast = top.next == top.count
            // Each element is handed to writeItem where it lies, not copied out of its array first.
            var opened: Frame?
            switch top.kind {
            case .array, .single:
                opened = try writeItem(top.values[next])
            case .object:
                writeText(top.members[next].key)
                opened = try writeItem(top.members[next].value)
            case .pairs, .sortedPairs:
                guard case .array(let pair) = top.values[next], pair.count == 2 else {
                    throw unsupported("a cbor.map pair must be a [key, value] array")
                }
                // The value waits in a frame of its own while its key is written.
                let key: Frame?
                if top.kind == .sortedPairs, case .bytes(let encoded) = pair[0] {
                    encoded.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
                    key = nil
                } else {
                    key = try writeItem(pair[0])
                }
                if !isLast { stack.append(top) }
                top = Frame(kind: .single, values: [pair[1]])
                if let key {
                    stack.append(top)
                    top = key
                }
                continue
            }
            if let opened {
                if !isLast { stack.append(top) }
                top = opened
            } else if isLast {
                guard let parent = stack.popLast() else { return }
                top = parent
            }
        }
    }

    /// Writes a scalar whole, or the heads of a container and the tags around it; returns the
    /// container's frame when it has elements to write.
    private mutating func writeItem(_ value: Value) throws(FormatError) -> Frame? {
        switch value {
        case .null: bytes.append(0xF6)
        case .bool(let b): bytes.append(b ? 0xF5 : 0xF4)
        case .integer(let i): writeInteger(i)
        case .float(let d): writeFloat(d)
        case .number(let text): try writeNumber(text)
        case .string(let s): writeText(s)
        case .bytes(let b):
            writeHead(major: 2, b.count)
            b.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
        case .date(let date): try writeDate(date)
        case .array(let elements):
            writeHead(major: 4, elements.count)
            if !elements.isEmpty { return Frame(kind: .array, values: elements) }
        case .object(let object):
            let members = object.members
            writeHead(major: 5, members.count)
            if !members.isEmpty {
                return Frame(kind: .object, members: options.isDeterministic ? sorted(members) : members)
            }
        case .tagged:
            return try writeTagged(value)
        }
        return nil
    }

    /// A tagged value: its tag heads in a loop (tags may nest deeply), then the value inside.
    private mutating func writeTagged(_ value: Value) throws(FormatError) -> Frame? {
        var current = value
        while case .tagged(let tag, let inner) = current {
            if let pairs = try keptMapPairs(tag, inner) {
                writeHead(major: 5, pairs.count)
                if pairs.isEmpty { return nil }
                guard options.isDeterministic else { return Frame(kind: .pairs, values: pairs) }
                let sorted = try sorted(pairs).map { encoded, value in Value.array([.bytes(encoded), value]) }
                return Frame(kind: .sortedPairs, values: sorted)
            }
            if try writeSimple(tag, inner) { return nil }
            if let number = Self.tagNumber(tag) { writeHead(major: 6, number) }
            current = inner
        }
        return try writeItem(current)
    }

    /// The number in a `cbor.tag.<number>` tag, or `nil` for other tags (whose inner value is
    /// written alone).
    static func tagNumber(_ tag: String) -> UInt64? {
        let prefix = "cbor.tag."
        guard tag.hasPrefix(prefix) else { return nil }
        return UInt64(tag.dropFirst(prefix.count))
    }

    // MARK: Tagged values CBOR has items for

    /// The pairs of a kept map (`cbor.map`), or `nil` for any other tag.
    private func keptMapPairs(_ tag: String, _ inner: Value) throws(FormatError) -> [Value]? {
        guard tag == CBORFormat.mapTag else { return nil }
        guard case .array(let pairs) = inner else { throw unsupported("a cbor.map value must be an array of pairs") }
        return pairs
    }

    /// Writes `undefined` or a simple value; `false` for other tags.
    private mutating func writeSimple(_ tag: String, _ inner: Value) throws(FormatError) -> Bool {
        if tag == CBORFormat.undefinedTag {
            bytes.append(0xF7)
            return true
        }
        guard tag == CBORFormat.simpleValueTag else { return false }
        guard case .integer(let number) = inner, (0...19).contains(number) || (24...255).contains(number) else {
            throw unsupported(
                "a simple value is an integer in 0…19 or 24…255 (20–23 are false, true, null, undefined)")
        }
        if number < 24 {
            bytes.append(0xE0 | UInt8(number))
        } else {
            bytes.append(0xF8)
            bytes.append(UInt8(number))
        }
        return true
    }

    // MARK: Scalars

    private mutating func writeInteger(_ i: Int64) {
        if i >= 0 {
            writeHead(major: 0, UInt64(i))
        } else {
            writeHead(major: 1, UInt64(bitPattern: -1 - i))
        }
    }

    /// The shortest of half, single and double precision that holds `d` exactly. A double with
    /// any of its low 29 significand bits set has neither shorter form (NaNs included).
    private mutating func writeFloat(_ d: Double) {
        if d.bitPattern & (1 << 29 - 1) != 0 {
            bytes.append(0xFB)
            appendBigEndian(d.bitPattern, width: 8)
        } else if let half = HalfFloat.bits(exactly: d) {
            bytes.append(0xF9)
            appendBigEndian(UInt64(half), width: 2)
        } else if let single = Self.singleBits(exactly: d) {
            bytes.append(0xFA)
            appendBigEndian(UInt64(single), width: 4)
        } else {
            bytes.append(0xFB)
            appendBigEndian(d.bitPattern, width: 8)
        }
    }

    static func singleBits(exactly d: Double) -> UInt32? {
        if d.isNaN {
            let bits = d.bitPattern
            let mantissa = bits & 0xF_FFFF_FFFF_FFFF
            guard mantissa & (1 << 29 - 1) == 0 else { return nil }
            return UInt32(bits >> 63) << 31 | 0x7F80_0000 | UInt32(mantissa >> 29)
        }
        let single = Float(d)
        return Double(single).bitPattern == d.bitPattern ? single.bitPattern : nil
    }

    /// An exact number: an integer in a head when it fits 64 bits (negative ones down to −2^64),
    /// a bignum (tag 2 or 3) beyond; a decimal as the float that holds it exactly, else as a
    /// decimal fraction (tag 4: `[exponent, mantissa]`).
    private mutating func writeNumber(_ text: String) throws(FormatError) {
        if let i = Int64(text) { return writeInteger(i) }
        if let u = UInt64(text) { return writeHead(major: 0, u) }
        guard let exact = DecimalText(text) else { throw unsupported("'\(text)' is not a number") }
        if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            return try writeInteger(digits: exact.digits.isEmpty ? [UInt8(ascii: "0")] : Self.digits(of: text),
                                    isNegative: exact.isNegative)
        }
        if let d = Double(text), d.isFinite, DecimalText("\(d)") == exact { return writeFloat(d) }
        bytes.append(0xC4)
        bytes.append(0x82)
        writeInteger(Int64(exact.exponent))
        try writeInteger(digits: exact.digits, isNegative: exact.isNegative)
    }

    /// The digits of integer text, without its sign and leading zeros.
    private static func digits(of text: String) -> [UInt8] {
        Array(text.utf8.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "0") })
    }

    /// An integer given by its decimal digits, in a head when it fits, else as a bignum.
    private mutating func writeInteger(digits: [UInt8], isNegative: Bool) throws(FormatError) {
        guard digits.count <= 3 * options.maxBignumBytes, var magnitude = BigMagnitude(decimal: digits) else {
            throw unsupported("an integer of \(digits.count) digits is longer than maxBignumBytes allows")
        }
        if magnitude.isZero { return writeHead(major: 0, 0) }
        if isNegative { magnitude.decrement() }
        if let small = magnitude.uint64 { return writeHead(major: isNegative ? 1 : 0, small) }
        let payload = magnitude.bigEndianBytes
        guard payload.count <= options.maxBignumBytes else {
            throw unsupported("an integer of \(payload.count) bytes is longer than maxBignumBytes")
        }
        writeHead(major: 6, isNegative ? CBORTags.negativeBignum : CBORTags.positiveBignum)
        writeHead(major: 2, payload.count)
        payload.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
    }

    private mutating func writeDate(_ date: Date) throws(FormatError) {
        switch options.dateEncoding {
        case .epochSeconds:
            let seconds = date.timeIntervalSince1970
            guard seconds.isFinite else { throw unsupported("the date \(seconds) is not finite") }
            bytes.append(0xC1)
            if seconds == seconds.rounded(), abs(seconds) < 9.0e18 {
                writeInteger(Int64(seconds))
            } else {
                writeFloat(seconds)
            }
        case .text:
            guard let text = ISO8601Text.string(from: date) else {
                throw unsupported(ISO8601Text.noTimestampMessage(for: date))
            }
            bytes.append(0xC0)
            writeText(text)
        }
    }

    /// A text string: its head, then its UTF-8 copied from the string's own storage in one go
    /// (a string not stored as contiguous UTF-8, a bridged one, is made so first).
    private mutating func writeText(_ s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ writeText(utf8: $0) }) == nil {
            var text = s
            text.withUTF8 { writeText(utf8: $0) }
        }
    }

    private mutating func writeText(utf8: UnsafeBufferPointer<UInt8>) {
        writeHead(major: 3, utf8.count)
        bytes.append(contentsOf: utf8)
    }

    // MARK: Deterministic order

    /// Members sorted by the bytes of their encoded keys (RFC 8949 §4.2.1).
    private func sorted(_ members: [Value.Object.Member]) -> [Value.Object.Member] {
        members.map { (Self.encodedKey($0.key), $0) }
            .sorted { $0.0.lexicographicallyPrecedes($1.0) }
            .map(\.1)
    }

    /// Kept map pairs sorted by the bytes of their encoded keys: each key's bytes and its value.
    private func sorted(_ pairs: [Value]) throws(FormatError) -> [([UInt8], Value)] {
        var keyed: [([UInt8], Value)] = []
        for pair in pairs {
            guard case .array(let parts) = pair, parts.count == 2 else {
                throw unsupported("a cbor.map pair must be a [key, value] array")
            }
            var writer = CBORWriter(options: options)
            try writer.write(parts[0])
            keyed.append((writer.finish(), parts[1]))
        }
        return keyed.sorted { $0.0.lexicographicallyPrecedes($1.0) }
    }

    private static func encodedKey(_ key: String) -> [UInt8] {
        var writer = CBORWriter(options: CBORFormat.Options())
        writer.writeText(key)
        return writer.finish()
    }

    // MARK: Heads

    private mutating func writeHead(major: UInt8, _ count: Int) {
        writeHead(major: major, UInt64(count))
    }

    /// A head in its shortest form: the argument in the initial byte below 24, else in 1, 2, 4
    /// or 8 following bytes.
    private mutating func writeHead(major: UInt8, _ argument: UInt64) {
        let type = major << 5
        switch argument {
        case 0..<24: bytes.append(type | UInt8(argument))
        case 0...0xFF: bytes.append(type | 24); bytes.append(UInt8(argument))
        case 0...0xFFFF: bytes.append(type | 25); appendBigEndian(argument, width: 2)
        case 0...0xFFFF_FFFF: bytes.append(type | 26); appendBigEndian(argument, width: 4)
        default: bytes.append(type | 27); appendBigEndian(argument, width: 8)
        }
    }

    /// Appends the low `width` bytes of `value`, most significant first.
    private mutating func appendBigEndian(_ value: UInt64, width: Int) {
        withUnsafeBytes(of: value.bigEndian) { word in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: word.bindMemory(to: UInt8.self)[(8 - width)...]))
        }
    }

    private func unsupported(_ message: String) -> FormatError {
        FormatError(.unsupportedValue, format: CBORFormat.formatName, message)
    }
}
