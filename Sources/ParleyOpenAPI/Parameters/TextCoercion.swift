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
        if types.contains(.integer) || types.contains(.number), Coercion.isNumberSyntax(text) {
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
}
