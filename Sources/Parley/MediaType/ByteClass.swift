/// Byte classes of RFC 9110's grammar, as a lookup table.
package enum ByteClass {
    /// Whether `byte` is a `tchar` of RFC 9110 §5.6.2: `!#$%&'*+-.^_`|~`, digits and letters.
    @inline(__always)
    package static func isToken(_ byte: UInt8) -> Bool {
        tokenTable[Int(byte)] != 0
    }

    /// 1 for each `tchar`, indexed by byte. Written out as a literal so the compiler lays it
    /// out in static memory: a lookup needs no lazy initialisation and no bounds check (every
    /// `UInt8` is in range), one load per byte.
    private static let tokenTable: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x00 controls
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x10 controls
        0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1, 1, 0,  // 0x20 SP ! " # $ % & ' ( ) * + , - . /
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,  // 0x30 0-9 : ; < = > ?
        0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  // 0x40 @ A-O
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1,  // 0x50 P-Z [ \ ] ^ _
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  // 0x60 ` a-o
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0,  // 0x70 p-z { | } ~ DEL
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x80 obs-text
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x90 obs-text
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xA0 obs-text
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xB0 obs-text
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xC0 obs-text
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xD0 obs-text
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xE0 obs-text
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xF0 obs-text
    ]

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
