import Parley

/// Reads serialized text as the type a schema asks for. Text that reads as none of them stays a
/// string, so schema validation reports the type error with the text the client sent.
enum TextCoercion {
    /// `text` as the first of `types` it reads as: any text is a string when strings are allowed;
    /// otherwise JSON number syntax gives an integer (64 bits) or the exact number text, `true`
    /// and `false` a Boolean, and empty text null.
    static func coerce(_ text: String, to types: TypeSet) -> Value {
        if types.isEmpty || types.contains(.string) { return .string(text) }
        if types.contains(.integer) || types.contains(.number), isNumberSyntax(text) {
            if let integer = Int64(text) { return .integer(integer) }
            return .number(text)
        }
        if types.contains(.boolean) {
            if text == "true" { return .bool(true) }
            if text == "false" { return .bool(false) }
        }
        if types.contains(.null), text.isEmpty { return .null }
        return .string(text)
    }

    /// Whether `text` follows the JSON number grammar (RFC 8259 §6: no `+`, no leading zeros).
    static func isNumberSyntax(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let leading = bytes.first
        let count = digits()
        guard count > 0, !(leading == UInt8(ascii: "0") && count > 1) else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
