/// The rules by which a string converts to a number or a Boolean when a `Decodable` type asks for
/// one: formats whose scalars are all text (XML, CSV, forms, query strings, headers) hold `"7"`
/// where JSON holds `7`.
///
/// Surrounding ASCII whitespace is ignored (XML keeps an element's text as written). A number is
/// `[+-]digits[.digits][(e|E)[+-]digits]`; a Boolean is `true`, `false`, `1` or `0` (XML Schema's
/// lexical forms).
@usableFromInline package enum TextScalar {
    /// `text` without leading and trailing spaces, tabs, CRs and LFs.
    @usableFromInline package static func trimmed(_ text: String) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = text.firstIndex(where: { !isSpace($0) }) else { return text[text.endIndex...] }
        let last = text.lastIndex(where: { !isSpace($0) })!
        return text[first...last]
    }

    /// Whether `text` is an optionally signed run of ASCII digits.
    @usableFromInline package static func isInteger(_ text: Substring) -> Bool {
        var utf8 = text.utf8[...]
        if let sign = utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
        return !utf8.isEmpty && utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Whether `text` is a decimal number: sign, digits, an optional fraction and exponent.
    @usableFromInline package static func isNumber(_ text: Substring) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Bool {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count > 0
        }
        func sign() {
            if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
                bytes = bytes.dropFirst()
            }
        }
        sign()
        guard digits() else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() else { return false }
        }
        if let first = bytes.first, first == UInt8(ascii: "e") || first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            sign()
            guard digits() else { return false }
        }
        return bytes.isEmpty
    }

    /// `typeMismatch` naming the type asked for and the text found (its first 40 characters).
    @usableFromInline package static func mismatch(
        _ type: Any.Type, _ text: String, path: [any CodingKey]
    ) -> DecodingError {
        .typeMismatch(
            type,
            .init(
                codingPath: path,
                debugDescription: "Expected \(type) but found the text '\(text.prefix(40))'."))
    }
}
