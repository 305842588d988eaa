/// Byte classes of RFC 9110's grammar, as a lookup table.
package enum ByteClass {
    /// `tchar` of RFC 9110 §5.6.2: `!#$%&'*+-.^_`|~`, digits and letters.
    package static let tokenTable: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for b in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(b)] = true }
        for b in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(b)] = true }
        for b in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(b)] = true }
        for c in "!#$%&'*+-.^_`|~".utf8 { table[Int(c)] = true }
        return table
    }()

    @inline(__always)
    package static func isToken(_ byte: UInt8) -> Bool {
        tokenTable.withUnsafeBufferPointer { $0[Int(byte)] }
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

    /// Lower-cases an ASCII letter, leaving every other byte alone.
    @inline(__always)
    package static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}
