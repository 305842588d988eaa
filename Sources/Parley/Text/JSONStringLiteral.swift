/// JSON string literals for line-oriented tool output (the CLI, check reports): the one place
/// that escapes quotes, backslashes and control characters (RFC 8259 §7).
package enum JSONStringLiteral {
    /// `text` as a JSON string literal, quotes included.
    package static func quoted(_ text: String) -> String {
        // Most text needs no escape: quote it whole rather than scalar by scalar.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
