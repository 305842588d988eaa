/// Escaping for the HTML report: everything that comes from a recording passes through here
/// before it reaches the page.
///
/// - ``escaped(_:keepingLines:)`` makes text safe in HTML text and in quoted attribute values
///   (`&`, `<`, `>`, `"` and `'` become references) and shows control characters,
///   bidirectional overrides and invisible separators as visible `\u{…}` escapes (the
///   ``TerminalText`` set and ``isInvisible(_:)``), so they cannot reorder or hide what a reader sees.
/// - ``scriptJSONString(_:)`` quotes text as a JSON string that is safe inside a
///   `<script type="application/json">` element: `<`, `>`, `&`, U+2028 and U+2029 are written
///   as `\u` escapes, so no `</script>` or `<!--` can appear in it.
package enum HTMLText {
    /// `text` escaped for HTML text or a quoted attribute value.
    package static func escaped(_ text: String, keepingLines: Bool = false) -> String {
        // Most recorded text is printable ASCII: it is escaped byte by byte.
        var copy = text
        if let ascii = copy.withUTF8({ escapedASCII($0, keepingLines: keepingLines) }) { return ascii }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\n" where keepingLines, "\t" where keepingLines: result.unicodeScalars.append(scalar)
            case "\r" where keepingLines: continue
            default:
                if TerminalText.needsEscape(scalar) || isInvisible(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `bytes` escaped when they are all ASCII; `nil` otherwise.
    private static func escapedASCII(_ bytes: UnsafeBufferPointer<UInt8>, keepingLines: Bool) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
            case UInt8(ascii: "\n") where keepingLines, UInt8(ascii: "\t") where keepingLines: out.append(byte)
            case UInt8(ascii: "\r") where keepingLines: continue
            case 0x20..<0x7F: out.append(byte)
            case 0x80...: return nil
            default: out.append(contentsOf: "\\u{\(String(byte, radix: 16, uppercase: true))}".utf8)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` as a JSON string literal safe inside a `<script>` element.
    package static func scriptJSONString(_ text: String) -> String {
        var text = text
        return text.withUTF8 { scriptJSONString(utf8: $0) }
    }

    /// The UTF-8 bytes of a string as a JSON string literal safe inside a `<script>` element.
    private static func scriptJSONString(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(bytes.count + bytes.count / 4 + 2)
        let hex = Array("0123456789abcdef".utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), 0x00..<0x20:
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                        hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            case 0xE2 where index + 1 < bytes.count && bytes[index] == 0x80
                && (bytes[index + 1] == 0xA8 || bytes[index + 1] == 0xA9):
                // U+2028 and U+2029.
                out.append(contentsOf: (bytes[index + 1] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                index += 2
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }

    /// Characters shown escaped besides the ``TerminalText`` set: the line and paragraph
    /// separators, the zero-width space and direction marks, the byte order mark, and
    /// noncharacters (U+FFFE, U+FFFF and the like). The zero-width joiner stays: emoji need it.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch value {
        case 0x2028, 0x2029, 0x200B, 0x200E, 0x200F, 0xFEFF: return true
        default: return (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
        }
    }

    /// A byte count for people: `512 B`, `1.2 kB`, `3.4 MB`.
    static func byteCount(_ count: Int) -> String {
        if count < 1_000 { return "\(count) B" }
        if count < 1_000_000 { return decimal(Double(count) / 1_000) + " kB" }
        return decimal(Double(count) / 1_000_000) + " MB"
    }

    /// `value` with one decimal.
    static func decimal(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        guard tenths.isFinite, abs(tenths) < 1e15 else { return "\(value)" }
        let whole = Int(tenths)
        return "\(whole / 10).\(abs(whole % 10))"
    }

    /// An integer with thousands separators: `10,000`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return (value < 0 ? "-" : "") + out
    }
}
