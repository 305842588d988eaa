import FoundationEssentials

/// Base64 (RFC 4648 §4, with padding) for bytes in formats whose text has no binary type.
package enum Base64Text {
    /// The padded base64 text of `bytes`.
    package static func string(from bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// The bytes of padded base64 text, or `nil` when it is not base64.
    package static func bytes(from text: String) -> [UInt8]? {
        Data(base64Encoded: text).map { [UInt8]($0) }
    }
}
