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
        // Read over the text's own bytes: no copy of them is made.
        let bytes = text.utf8
        var i = bytes.startIndex
        func peek() -> UInt8? { i < bytes.endIndex ? bytes[i] : nil }
        func digits() -> Int {
            var n = 0
            while let c = peek(), c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") {
                bytes.formIndex(after: &i)
                n += 1
            }
            return n
        }
        if peek() == UInt8(ascii: "-") { bytes.formIndex(after: &i) }
        let leading = peek()
        let count = digits()
        guard count > 0, !(leading == UInt8(ascii: "0") && count > 1) else { return false }
        if peek() == UInt8(ascii: ".") {
            bytes.formIndex(after: &i)
            guard digits() > 0 else { return false }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            bytes.formIndex(after: &i)
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { bytes.formIndex(after: &i) }
            guard digits() > 0 else { return false }
        }
        return i == bytes.endIndex
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
