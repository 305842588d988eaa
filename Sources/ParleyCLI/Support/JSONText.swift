import Parley

/// Minimal JSON text for the CLI's own line-oriented output.
package enum JSONText {
    /// `text` as a JSON string literal.
    package static func quote(_ text: String) -> String {
        JSONStringLiteral.quoted(text)
    }

    /// `text` quoted, or `null`.
    package static func quote(_ text: String?) -> String {
        text.map { quote($0) } ?? "null"
    }
}
