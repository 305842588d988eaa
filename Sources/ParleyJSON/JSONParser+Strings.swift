import Parley

extension JSONParser {
    /// Scans a string whose opening quote was consumed, as far as its bytes need no
    /// decoding: returns where its text ends and leaves `position` after the closing quote,
    /// or returns `nil` with `position` at the first escape or control character, for
    /// ``decodeEscapedString(from:)`` to finish. UTF-8 is validated on the way; raw control
    /// characters are malformed.
    ///
    /// Eight bytes are checked at a time: the lowest byte that is not printable ASCII other
    /// than `"` and `\` is found from the word's flags, so a short string (most keys) takes one
    /// step to its closing quote. The end of the text needs no test of its own: the ``padding``
    /// zeros after it are control characters to the scan, and a word read from at most the
    /// text's end stays within them.
    mutating func scanPlainString() throws(FormatError) -> Int? {
        var i = position
        while true {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self))
            let special = Self.specialBytes(word)
            if special == 0 {
                i &+= 8
                continue
            }
            i &+= special.trailingZeroBitCount &>> 3
            let byte = bytes[i]
            if byte == 0x22 {
                position = i &+ 1
                return i
            }
            // A backslash or a control character (the padding's zeros included) ends the scan.
            guard byte >= 0x80 else { break }
            i &+= try utf8SequenceLength(at: i)
        }
        position = i
        return nil
    }

    /// The high bit of each byte of `word` (eight string bytes, little-endian) that is not
    /// printable ASCII other than `"` and `\\`, exactly up to the first such byte: the lowest flag
    /// is the first byte a string scan must look at.
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        // Each term flags the bytes it looks for exactly up to its first one (borrows only run
        // upwards), so the lowest flag of all is a byte to look at.
        return (((quote &- ones) & ~quote)
            | ((backslash &- ones) & ~backslash)
            | ((word &- ones &* 0x20) & ~word)
            | word) & high
    }

    /// The length of the valid UTF-8 sequence starting at `i` (a byte ≥ 0x80).
    func utf8SequenceLength(at i: Int) throws(FormatError) -> Int {
        switch Charset.utf8SequenceLength(in: UnsafeBufferPointer(start: bytes, count: count), at: i) {
        case .success(let length):
            return length
        case .failure(.invalidLeadByte):
            throw error(.invalidText, "invalid UTF-8 byte 0x\(String(bytes[i], radix: 16, uppercase: true))", at: i)
        case .failure(.truncated):
            throw error(.invalidText, "truncated UTF-8 sequence", at: i)
        case .failure(.invalidContinuation):
            throw error(.invalidText, "invalid UTF-8 sequence", at: i)
        case .failure(.invalidScalar):
            throw error(.invalidText, "invalid UTF-8 sequence (overlong, surrogate or beyond U+10FFFF)", at: i)
        }
    }

    /// Finishes a string with escapes, decoding it in place: `position` is at the first byte the
    /// fast scan stopped at, and the bytes from `start` up to it are plain. Returns the decoded
    /// text's length; the text starts at `start`, and `position` is after the closing quote.
    ///
    /// Decoded text is never longer than its escapes (`\n` is 2 bytes for 1, `\uXXXX` 6 for at
    /// most 3, a surrogate pair 12 for 4), so it is written over the bytes already read, and the
    /// bytes still to read are never touched. Between escapes, ``scanPlainString()`` finds the
    /// next one, and each plain run is moved down in one piece.
    mutating func decodeEscapedString(from start: Int) throws(FormatError) -> Int {
        var write = position  // where the next decoded byte goes
        while true {
            // `position` is where the scan stopped: an escape, a control character or the end.
            let i = position
            guard i < count else { throw error(.truncated, "unterminated string", at: i) }
            let byte = bytes[i]
            guard byte == 0x5C else {
                throw error(
                    .malformed, "unescaped control character 0x\(String(byte, radix: 16, uppercase: true)) in a string",
                    at: i)
            }
            guard i + 1 < count else { throw error(.truncated, "unterminated escape", at: i) }
            let escaped = bytes[i + 1]
            var length = 2
            switch escaped {
            case 0x22, 0x5C, 0x2F: bytes[write] = escaped
            case 0x62: bytes[write] = 0x08
            case 0x66: bytes[write] = 0x0C
            case 0x6E: bytes[write] = 0x0A
            case 0x72: bytes[write] = 0x0D
            case 0x74: bytes[write] = 0x09
            case 0x75:
                let scalar: Unicode.Scalar
                (scalar, length) = try parseUnicodeEscape(at: i)
                write &+= Self.writeUTF8(scalar, to: bytes + write) &- 1
            default:
                throw error(.malformed, "invalid escape '\\\(Character(Unicode.Scalar(escaped)))'", at: i)
            }
            write &+= 1
            position = i + length
            let runStart = position
            let end = try scanPlainString()
            let runEnd = end ?? position
            (bytes + write).update(from: bytes + runStart, count: runEnd &- runStart)
            write &+= runEnd &- runStart
            if end != nil { return write &- start }
        }
    }

    /// Reads four hex digits at `i`.
    func hexQuad(at i: Int) throws(FormatError) -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 {
            guard i + k < count else { throw error(.truncated, "unterminated \\u escape", at: i + k) }
            let c = bytes[i + k]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw error(.malformed, "invalid hex digit in \\u escape", at: i + k)
            }
            value = value << 4 | digit
        }
        return value
    }

    /// Parses `\uXXXX` (and a following low-surrogate escape) at `i`; returns the scalar and
    /// the number of bytes consumed. A lone surrogate is `FormatError/Code/invalidText`.
    func parseUnicodeEscape(at i: Int) throws(FormatError) -> (Unicode.Scalar, Int) {
        let unit = try hexQuad(at: i + 2)
        switch unit {
        case 0xD800...0xDBFF:
            guard i + 7 < count, bytes[i + 6] == 0x5C, bytes[i + 7] == 0x75 else {
                throw error(
                    .invalidText,
                    "lone high surrogate \\u\(String(unit, radix: 16, uppercase: true)) (no low surrogate follows)",
                    at: i)
            }
            let low = try hexQuad(at: i + 8)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error(
                    .invalidText,
                    "high surrogate \\u\(String(unit, radix: 16, uppercase: true)) followed by "
                        + "\\u\(String(low, radix: 16, uppercase: true)), not a low surrogate",
                    at: i)
            }
            let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            return (Unicode.Scalar(value)!, 12)
        case 0xDC00...0xDFFF:
            throw error(.invalidText, "lone low surrogate \\u\(String(unit, radix: 16, uppercase: true))", at: i)
        default:
            return (Unicode.Scalar(unit)!, 6)
        }
    }

    /// Writes `scalar` as UTF-8 at `target` (room for 4 bytes); returns the byte count.
    static func writeUTF8(_ scalar: Unicode.Scalar, to target: UnsafeMutablePointer<UInt8>) -> Int {
        let v = scalar.value
        switch v {
        case 0..<0x80:
            target[0] = UInt8(v)
            return 1
        case 0x80..<0x800:
            target[0] = UInt8(0xC0 | (v >> 6))
            target[1] = UInt8(0x80 | (v & 0x3F))
            return 2
        case 0x800..<0x10000:
            target[0] = UInt8(0xE0 | (v >> 12))
            target[1] = UInt8(0x80 | ((v >> 6) & 0x3F))
            target[2] = UInt8(0x80 | (v & 0x3F))
            return 3
        default:
            target[0] = UInt8(0xF0 | (v >> 18))
            target[1] = UInt8(0x80 | ((v >> 12) & 0x3F))
            target[2] = UInt8(0x80 | ((v >> 6) & 0x3F))
            target[3] = UInt8(0x80 | (v & 0x3F))
            return 4
        }
    }
}
