/// Replaces the values of secret query parameters wherever a URL appears in a text: a request
/// target, a `Location`, `Referer` or `Content-Location` value, each `<…>` of a `Link` field,
/// an access-log line.
///
/// A parameter is a `name=value` pair after `?`, `&` or `;`. Names compare case-insensitively
/// after percent-decoding, with any bracket suffix dropped (`access_token[]`, `access_token[0]`
/// and `Access%5FToken` are all `access_token`). A value runs to the next `&`, `#`, `;`, `,`,
/// `>`, quote or white space.
struct URLRedaction: Sendable {
    /// Lower-cased names.
    let names: Set<String>
    /// What a value becomes (already safe inside a query).
    let replacement: String

    /// Redacts `parameters` (and always `access_token`, RFC 6750 §2.3).
    init(parameters: [String], replacement: String = "REDACTED") {
        names = Set((["access_token"] + parameters).map { $0.lowercased() })
        self.replacement = replacement
    }

    /// The header fields whose values hold URLs.
    static let urlFields: Set<String> = ["location", "content-location", "referer", "link"]

    /// `text` with the value of every named parameter replaced; everything else as it was.
    func apply(to text: String) -> String {
        // A byte search: `String.contains(_:)` with a string goes through Foundation's search.
        guard text.utf8.contains(UInt8(ascii: "=")) else { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            output.append(byte)
            index += 1
            guard byte == UInt8(ascii: "?") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";") else { continue }
            // A name, then `=`.
            var end = index
            while end < bytes.count, !Self.endsName(bytes[end]) { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "="), end > index,
                  names.contains(Self.baseName(bytes[index..<end])) else { continue }
            output += bytes[index...end]
            var valueEnd = end + 1
            while valueEnd < bytes.count, !Self.endsValue(bytes[valueEnd]) { valueEnd += 1 }
            if valueEnd > end + 1 { output += replacement.utf8 }
            index = valueEnd
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || endsValue(byte)
    }

    private static func endsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: ">"),
             UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"),
             UInt8(ascii: "\n"), UInt8(ascii: "?"):
            true
        default:
            false
        }
    }

    /// A name percent-decoded (`+` as space), lower-cased, without a `[…]` suffix.
    private static func baseName(_ raw: ArraySlice<UInt8>) -> String {
        var decoded: [UInt8] = []
        var index = raw.startIndex
        while index < raw.endIndex {
            if raw[index] == UInt8(ascii: "%"), raw.endIndex - index >= 3,
               let value = UInt8(String(decoding: raw[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                decoded.append(value)
                index += 3
            } else {
                decoded.append(raw[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : raw[index])
                index += 1
            }
        }
        if let bracket = decoded.firstIndex(of: UInt8(ascii: "[")) { decoded.removeSubrange(bracket...) }
        return String(decoding: decoded, as: UTF8.self).lowercased()
    }
}
