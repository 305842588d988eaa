import Parley
import ParleySchema

/// Reads serialized text as the type a schema asks for. Text that reads as none of them stays a
/// string, so schema validation reports the type error with the text the client sent.
enum TextCoercion {
    /// `text` as the first of `types` it reads as: any text is a string when strings are allowed;
    /// otherwise JSON number syntax gives an integer (64 bits) or the exact number text, `true`
    /// and `false` a Boolean, and empty text null.
    static func coerce(_ text: String, to types: TypeSet) -> Value {
        if types.isEmpty || types.contains(.string) { return .string(text) }
        if types.contains(.integer) || types.contains(.number) {
            if let integer = integer(text) { return .integer(integer) }
            if Coercion.isNumberSyntax(text) { return Int64(text).map(Value.integer) ?? .number(text) }
        }
        if types.contains(.boolean) {
            if text == "true" { return .bool(true) }
            if text == "false" { return .bool(false) }
        }
        if types.contains(.null), text.isEmpty { return .null }
        return .string(text)
    }

    /// `text` as a 64-bit integer when it is JSON integer syntax (`-?(0|[1-9][0-9]*)`) within
    /// range, read in one pass over its bytes: the common parameter, such as `?limit=20`.
    static func integer(_ text: String) -> Int64? {
        var bytes = text.utf8.makeIterator()
        guard var byte = bytes.next() else { return nil }
        let isNegative = byte == UInt8(ascii: "-")
        if isNegative {
            guard let next = bytes.next() else { return nil }
            byte = next
        }
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        // Accumulated as a negative number, whose range holds Int64.min.
        var value = -Int64(byte - UInt8(ascii: "0"))
        let leadingZero = byte == UInt8(ascii: "0")
        while let digit = bytes.next() {
            guard !leadingZero, digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, underflowed) = times.subtractingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            guard !overflowed, !underflowed else { return nil }
            value = sum
        }
        if isNegative { return value }
        return value == .min ? nil : -value
    }
}
