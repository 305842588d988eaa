/// JSON string literals for line-oriented tool output (the CLI, check reports): the one place
/// that escapes quotes, backslashes and control characters (RFC 8259 §7).
package enum JSONStringLiteral {
    /// `text` as a JSON string literal, quotes included.
    package static func quoted(_ text: String) -> String {
        // Most text needs no escape: quote it whole.
        if !text.utf8.contains(where: needsEscape) { return "\"" + text + "\"" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal, quotes included, to `bytes`: runs that need no
    /// escape are copied whole.
    package static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard needsEscape(byte) else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
                default:
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(hexDigit(byte >> 4))
                    bytes.append(hexDigit(byte & 0xF))
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The lower-case hexadecimal digit of `value` (0–15).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}
