import Parley

/// Reading text scalars (XML, CSV, forms, query strings, headers) as the type a schema asks for.
package enum Coercion {
    /// `text` as the first of `types` it reads as: integer, number, boolean, then null
    /// (`"null"` or empty); `nil` when it reads as none.
    static func coerce(_ text: String, to types: TypeSet) -> Value? {
        let trimmed = text.trimmingWhitespace
        if types.contains(.integer) || types.contains(.number), let number = ExactNumber(text: trimmed),
            isNumberSyntax(trimmed)
        {
            if let i = Int64(trimmed) { return .integer(i) }
            if types.contains(.number) || number.isInteger { return .number(trimmed) }
        }
        if types.contains(.boolean) {
            if trimmed == "true" { return .bool(true) }
            if trimmed == "false" { return .bool(false) }
        }
        if types.contains(.null), trimmed.isEmpty || trimmed == "null" { return .null }
        return nil
    }

    /// Whether `text` follows the JSON number grammar (no `+`, no leading zeros, digits around `.`).
    package static func isNumberSyntax(_ text: String) -> Bool {
        // One pass over the text's own bytes, no copy made: where in the grammar the bytes so far end.
        var part = NumberPart.start
        for byte in text.utf8 {
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            let isExponent = byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            switch part {
            case .start where byte == UInt8(ascii: "-"): part = .minus
            case .start, .minus:
                guard isDigit else { return false }
                part = byte == UInt8(ascii: "0") ? .zero : .integer
            case .zero, .integer, .fraction:
                if isDigit && part != .zero {
                    continue
                } else if byte == UInt8(ascii: "."), part != .fraction {
                    part = .dot
                } else if isExponent {
                    part = .exponent
                } else {
                    return false
                }
            case .dot:
                guard isDigit else { return false }
                part = .fraction
            case .exponent where byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"): part = .exponentSign
            case .exponent, .exponentSign, .exponentDigits:
                guard isDigit else { return false }
                part = .exponentDigits
            }
        }
        return part == .zero || part == .integer || part == .fraction || part == .exponentDigits
    }

    /// Where a number's text is: before it, after its minus sign, its integer part (a lone `0`
    /// or digits from 1 to 9), after the `.`, in the fraction, after the `e`, after its sign, in
    /// its digits.
    private enum NumberPart {
        case start, minus, zero, integer, dot, fraction, exponent, exponentSign, exponentDigits
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line breaks.
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.isSpace($0) }),
            let last = scalars.lastIndex(where: { !Self.isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }
}
