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

    /// `text` as a JSON string literal safe inside a `<script>` element.
    package static func scriptJSONString(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
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
