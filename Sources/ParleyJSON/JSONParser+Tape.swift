import Parley

extension JSONParser {
    /// What ``parseTape()`` produces, before it becomes a ``JSONTape``.
    struct TapeParts: ~Copyable {
        var entries: JSONTapeEntryBuffer
        var strings: [String] = []
        /// The key entries of the objects over `JSONTape/walkLimit` members.
        var largeObjectKeys = JSONTape.LargeObjectKeys()

        /// Lists the key entries of the object at `object`, which has just closed.
        mutating func listKeys(of object: Int) {
            largeObjectKeys.firstKey[UInt32(truncatingIfNeeded: object)] = largeObjectKeys.keys.count
            var key = object &+ 1
            for _ in 0..<Int(entries[object].length) {
                largeObjectKeys.keys.append(UInt32(truncatingIfNeeded: key))
                let value = entries[key &+ 1]
                key = value.kind == .array || value.kind == .object ? Int(truncatingIfNeeded: value.payload) : key &+ 2
            }
        }
    }

    /// Parses one value (with everything nested in it) at `position` into tape entries, by
    /// RFC 8259's grammar and the decoding limits.
    ///
    /// `JSONFormat/Options/removesNullValues` is not applied here: its callers build their tree
    /// from the tape (`JSONTape/valueRemovingNulls(at:arrayElementsToo:)`).
    mutating func parseTape() throws(FormatError) -> TapeParts {
        // Room for an entry per 6 bytes, so that most documents never grow it: API-like ones take
        // one per 7 to 10 bytes, arrays of floats about one per 8.
        try parseTape(into: JSONTapeEntryBuffer(capacity: count / 6))
    }

    /// ``parseTape()`` writing the entries into `entries`, which has none yet (its memory may be
    /// a reused tape's).
    mutating func parseTape(into entries: consuming JSONTapeEntryBuffer) throws(FormatError) -> TapeParts {
        var tape = TapeParts(entries: entries)
        // The entry index of the innermost open container (-1: none), how many are open, and
        // the innermost one's kind and values so far, kept in locals while it is open. An open
        // container's `payload` holds the index of the one around it (-1: none) until it closes,
        // and an open container with one inside it keeps its count in its `length`, so the open
        // containers need no stack of their own (an array for one is an allocation per
        // document, a large part of parsing a small one).
        var innermost = -1
        var depth = 0
        var members: UInt32 = 0
        var inObject = false
        // Values so far, against `DecodingLimits/maxNodes`.
        var nodes = 0

        parsing: while true {
            guard position < count else { throw unexpected("a value", at: position) }
            nodes &+= 1
            if nodes > maxNodes { throw nodeLimitExceeded() }
            switch bytes[position] {
            case 0x7B, 0x5B: // { [
                // Compared here rather than in a method: calling one copied the parser's state.
                if depth >= maxDepth { throw depthLimitExceeded(open: depth) }
                let isObject = bytes[position] == 0x7B
                position += 1
                skipWhitespace()
                let index = tape.entries.count
                tape.entries.append(JSONTape.Entry(kind: isObject ? .object : .array, length: 0, payload: 0))
                if position < count && bytes[position] == (isObject ? 0x7D : 0x5D) {
                    position += 1
                    tape.entries[index].payload = UInt64(truncatingIfNeeded: tape.entries.count)
                } else {
                    tape.entries[index].payload = UInt64(bitPattern: Int64(innermost))
                    if innermost >= 0 { tape.entries[innermost].length = members }
                    innermost = index
                    members = 0
                    inObject = isObject
                    depth += 1
                    if isObject { try appendKey(to: &tape) }
                    continue parsing
                }
            case 0x22: // "
                position += 1
                try appendString(to: &tape)
            // Literals are compared as one 4-byte word (the ``padding`` makes reading it safe);
            // a mismatch goes to `expectLiteral`, which says where and why.
            case 0x74: // t
                if word32(at: position) == 0x6575_7274 { position &+= 4 } else { try expectLiteral("true") }
                tape.entries.append(JSONTape.Entry(kind: .trueValue, length: 0, payload: 0))
            case 0x66: // f
                if word32(at: position &+ 1) == 0x6573_6C61 { position &+= 5 } else { try expectLiteral("false") }
                tape.entries.append(JSONTape.Entry(kind: .falseValue, length: 0, payload: 0))
            case 0x6E: // n
                if word32(at: position) == 0x6C6C_756E { position &+= 4 } else { try expectLiteral("null") }
                tape.entries.append(JSONTape.Entry(kind: .null, length: 0, payload: 0))
            case 0x2D, 0x30...0x39:
                let start = position
                var number = try parseNumber()
                if number.kind == .numberText {
                    number.payload = UInt64(tape.strings.count)
                    tape.strings.append(text(from: start, to: position))
                }
                tape.entries.append(number)
            default:
                throw unexpected("a value", at: position)
            }

            // Count the value in its container; close containers; move to the next child.
            while innermost >= 0 {
                let container = innermost
                guard members < UInt32.max else {
                    throw FormatError.limitExceeded(
                        format: Self.formatName, limit: "members per container (tape)",
                        maximum: Int(UInt32.max), location: error(.limitExceeded, "", at: position).location)
                }
                members &+= 1
                if try nextMember(inObject: inObject) {
                    if inObject { try appendKey(to: &tape) }
                    continue parsing
                }
                innermost = Int(Int64(bitPattern: tape.entries[container].payload))
                tape.entries[container].payload = UInt64(truncatingIfNeeded: tape.entries.count)
                tape.entries[container].length = members
                depth -= 1
                if inObject && members > JSONTape.walkLimit {
                    tape.listKeys(of: container)
                }
                if innermost >= 0 {
                    members = tape.entries[innermost].length
                    inObject = tape.entries[innermost].kind == .object
                }
            }
            // Values refer to objects by their entry's index in 32 bits.
            guard tape.entries.count <= UInt32.max else {
                throw FormatError.limitExceeded(
                    format: Self.formatName, limit: "values per document (tape)",
                    maximum: Int(UInt32.max), location: error(.limitExceeded, "", at: position).location)
            }
            return tape
        }
    }

    /// The four bytes at `offset` (at most the text's end: the ``padding`` follows), little-endian.
    func word32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(bytes + offset).loadUnaligned(as: UInt32.self))
    }

    /// The length of the string from `start` to its closing quote when it is under 16 bytes of
    /// printable ASCII without escapes, found from two words without a loop, else `nil`. The
    /// words are read whatever the string's length, and the quote test needs no end test: the
    /// text is followed by ``padding`` zero bytes (which stop the test like control characters).
    /// Inlined into its two callers, once per key and string (kept: the gate measures it, see
    /// Benchmarks/Gate/kept-shortcuts.md).
    @inline(__always)
    func shortPlainStringLength(at start: Int) -> Int? {
        let raw = UnsafeRawPointer(bytes + start)
        var special = Self.specialBytes(UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)))
        var length = 0
        if special == 0 {
            special = Self.specialBytes(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
            length = 8
        }
        length &+= special.trailingZeroBitCount &>> 3  // 64 / 8 when there is no flag: no quote there
        return special != 0 && bytes[start &+ length] == 0x22 ? length : nil
    }

    /// Appends the string whose opening quote was consumed. A string under 16 bytes of printable
    /// ASCII without escapes is appended here, inlined into the parse loop (kept: the gate
    /// measures it, see Benchmarks/Gate/kept-shortcuts.md); any other goes to
    /// ``appendLongString(to:)``.
    @inline(__always)
    mutating func appendString(to tape: inout TapeParts) throws(FormatError) {
        let start = position
        if let shortLength = shortPlainStringLength(at: start) {
            tape.entries.append(JSONTape.Entry(kind: .plainString, length: UInt32(truncatingIfNeeded: shortLength),
                                               payload: UInt64(truncatingIfNeeded: start)))
            position = start &+ shortLength &+ 1
        } else {
            try appendLongString(to: &tape)
        }
    }

    /// ``appendString(to:)`` for any string: one with escapes or non-ASCII bytes, or of 16 bytes
    /// or more.
    @inline(never)
    mutating func appendLongString(to tape: inout TapeParts) throws(FormatError) {
        let start = position
        let end = try scanPlainString()
        if let end, end - start <= Int(UInt32.max) {
            tape.entries.append(JSONTape.Entry(kind: .plainString, length: UInt32(truncatingIfNeeded: end - start),
                                               payload: UInt64(truncatingIfNeeded: start)))
            return
        }
        if let end {
            // Too long for an entry's length field: kept as a string of its own.
            let text = String(decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
            tape.entries.append(JSONTape.Entry(kind: .decodedString, length: 0, payload: UInt64(tape.strings.count)))
            tape.strings.append(text)
            return
        }
        // Strings with escapes are decoded now, in place.
        let length = try decodeEscapedString(from: start)
        if length > Int(UInt32.max) {
            tape.entries.append(JSONTape.Entry(kind: .decodedString, length: 0, payload: UInt64(tape.strings.count)))
            tape.strings.append(
                String(decoding: UnsafeBufferPointer(start: bytes + start, count: length), as: UTF8.self))
            return
        }
        tape.entries.append(
            JSONTape.Entry(
                kind: .plainString, length: UInt32(truncatingIfNeeded: length),
                payload: UInt64(truncatingIfNeeded: start)))
    }

    /// Appends a member's key and consumes the `:` after it.
    ///
    /// A key under 16 bytes of printable ASCII without escapes (most keys are) is found by
    /// ``shortPlainStringLength(at:)`` and appended here, inlined into the parse loop (kept: the
    /// gate measures it, see Benchmarks/Gate/kept-shortcuts.md); any other key goes to
    /// ``appendLongKey(to:)``. The colon test needs no end test: the text is followed by
    /// ``padding`` zero bytes.
    @inline(__always)
    mutating func appendKey(to tape: inout TapeParts) throws(FormatError) {
        if bytes[position] == 0x22, let length = shortPlainStringLength(at: position &+ 1),
           bytes[position &+ length &+ 2] == 0x3A {
            let start = position &+ 1
            tape.entries.append(JSONTape.Entry(kind: .plainString, length: UInt32(truncatingIfNeeded: length),
                                               payload: UInt64(truncatingIfNeeded: start)))
            position = start &+ length &+ 2
            skipWhitespace()
        } else {
            try appendLongKey(to: &tape)
        }
    }

    /// ``appendKey(to:)`` for any key: one with escapes, non-ASCII bytes, 16 bytes or more,
    /// whitespace before its colon, or a mistake.
    @inline(never)
    mutating func appendLongKey(to tape: inout TapeParts) throws(FormatError) {
        if bytes[position] == 0x22 { position &+= 1 } else { try expectKeyQuote() }
        try appendString(to: &tape)
        if bytes[position] == 0x3A {
            position &+= 1
            skipWhitespace()
        } else {
            try expectColon()
        }
    }
}
