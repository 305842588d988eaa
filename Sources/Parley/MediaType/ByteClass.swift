/// Byte classes of RFC 9110's grammar, as a lookup table.
package enum ByteClass {
    /// Whether `byte` is a `tchar` of RFC 9110 §5.6.2: `!#$%&'*+-.^_`|~`, digits and letters.
    /// Two bit masks over bytes 0–63 and 64–127, so the test needs no table lookup.
    @inline(__always)
    package static func isToken(_ byte: UInt8) -> Bool {
        // Bytes 0-63: ! # $ % & ' * + - . and digits. Bytes 64-127: letters ^ _ ` | ~.
        let low: UInt64 = 0x03FF_6CFA_0000_0000
        let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
        if byte < 64 { return (low >> UInt64(byte)) & 1 == 1 }
        if byte < 128 { return (high >> UInt64(byte - 64)) & 1 == 1 }
        return false
    }

    /// OWS: space or horizontal tab.
    @inline(__always)
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// A control character other than HTAB (0x00–0x1F, 0x7F).
    @inline(__always)
    package static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    /// `qdtext` of RFC 9110 §5.6.4: HTAB, SP, VCHAR except `"` and `\`, obs-text.
    @inline(__always)
    package static func isQuotedText(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x20 || byte == 0x21 || (byte >= 0x23 && byte <= 0x5B)
            || (byte >= 0x5D && byte <= 0x7E) || byte >= 0x80
    }

    /// The value of an ASCII hexadecimal digit (`0`–`9`, `a`–`f`, `A`–`F`), or `nil`.
    @inline(__always)
    package static func hexDigitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Lower-cases an ASCII letter, leaving every other byte alone.
    @inline(__always)
    package static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}
