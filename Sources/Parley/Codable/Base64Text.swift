/// Base64 (RFC 4648 §4) for bytes in formats whose text has no binary type: JSON and YAML
/// strings, property-list `<data>`, typed JSON, query strings.
package enum Base64Text {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// The padded base64 text of `bytes`.
    package static func string(from bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        encode(bytes, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of base64 text, or `nil` when it is not base64.
    package static func bytes(from text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0, skippingWhitespace: false) }
    }

    /// The bytes that base64 `text` encodes, or `nil` when it is not base64: a character outside
    /// the alphabet, data after `=`, more than two `=`, or leftover bits that are not zero.
    /// Padding may be left out. With `skippingWhitespace`, spaces, tabs and line breaks
    /// anywhere are ignored (property-list `<data>`, YAML `!!binary`).
    package static func decode(_ text: UnsafeBufferPointer<UInt8>, skippingWhitespace: Bool) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3 + 2)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for byte in text {
            let value = values[Int(byte)]
            if value != 0xFF {
                guard padding == 0 else { return nil }
                accumulator = (accumulator << 6) | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                }
                continue
            }
            if byte == UInt8(ascii: "=") {
                padding += 1
            } else if !(skippingWhitespace && (byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09)) {
                return nil
            }
        }
        guard padding <= 2, bits < 6, accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }

    /// Appends the padded base64 text of `bytes` to `output`.
    package static func encode(_ bytes: [UInt8], into output: inout [UInt8]) {
        output.reserveCapacity(output.count + (bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining > 0 {
            var chunk = UInt32(bytes[index]) << 16
            if remaining == 2 { chunk |= UInt32(bytes[index + 1]) << 8 }
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(remaining == 2 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
    }
}
