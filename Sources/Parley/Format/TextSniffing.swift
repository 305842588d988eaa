/// Small helpers for a format's ``Format/sniff(_:)``: where a text body really starts and ends,
/// and whether it opens like an HTML page.
///
/// ```swift
/// func sniff(_ bytes: UnsafeRawBufferPointer) -> MediaType? {
///     guard let first = TextSniffing.firstSignificantByte(bytes) else { return nil }
///     return bytes[first] == UInt8(ascii: "{") ? "application/json" : nil
/// }
/// ```
public enum TextSniffing {
    /// How many leading bytes the helpers look at: enough for a declaration and a root element.
    public static let headLength = 512

    /// The offset of the first byte after a UTF-8 byte-order mark and white space (SP, HTAB,
    /// CR, LF), or `nil` when there is none.
    public static func firstSignificantByte(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        while start < bytes.count, isWhiteSpace(bytes[start]) { start += 1 }
        return start < bytes.count ? start : nil
    }

    /// The offset of the last byte that is not white space, or `nil` when there is none.
    public static func lastSignificantByte(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var end = bytes.count - 1
        while end >= 0, isWhiteSpace(bytes[end]) { end -= 1 }
        return end >= 0 ? end : nil
    }

    /// The first ``headLength`` bytes from the first significant byte, lower-cased ASCII.
    public static func lowercasedHead(_ bytes: UnsafeRawBufferPointer) -> String {
        guard let start = firstSignificantByte(bytes) else { return "" }
        let end = min(bytes.count, start + headLength)
        return String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
    }

    /// Whether the body opens like an HTML page: an HTML doctype or an `html`, `head` or `body`
    /// element, possibly after an XML declaration (XHTML).
    public static func looksLikeHTML(_ bytes: UnsafeRawBufferPointer) -> Bool {
        looksLikeHTML(lowercasedHead: lowercasedHead(bytes))
    }

    /// ``looksLikeHTML(_:)`` for a head already made with ``lowercasedHead(_:)``.
    public static func looksLikeHTML(lowercasedHead head: String) -> Bool {
        if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") || head.hasPrefix("<head")
            || head.hasPrefix("<body") {
            return true
        }
        return head.hasPrefix("<?xml") && (head.contains("<html") || head.contains("<!doctype html"))
    }

    /// Whether `bytes` starts with `prefix` at `offset`.
    public static func bytes(_ bytes: UnsafeRawBufferPointer, startWith prefix: some Collection<UInt8>,
                             at offset: Int = 0) -> Bool {
        guard offset >= 0, bytes.count - offset >= prefix.count else { return false }
        return zip(bytes[offset...], prefix).allSatisfy { $0 == $1 }
    }

    /// SP, HTAB, CR or LF.
    public static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
