/// How names and values are percent-escaped in a query or form body (RFC 3986 §2.1).
///
/// Bytes of the UTF-8 text that are in ``allowedCharacters`` are written as themselves; every other
/// byte is written `%XX` with upper-case hex digits. By default the allowed set is RFC 3986's
/// *unreserved* characters, `A–Z a–z 0–9 - . _ ~`, so `&`, `=`, `+`, `[`, `]`, `/`, `?` and
/// spaces are always escaped and a value can never be mistaken for syntax:
///
/// | input | ``rfc3986`` | ``form`` |
/// |---|---|---|
/// | `a b` | `a%20b` | `a+b` |
/// | `a+b` | `a%2Bb` | `a%2Bb` |
/// | `x[y]` | `x%5By%5D` | `x%5By%5D` |
/// | `é` | `%C3%A9` | `%C3%A9` |
///
/// Add characters with ``allowing(_:)`` — for example `PercentEscaping.rfc3986.allowing("[]")`
/// writes nested keys as a readable `a[b]=c`, which PHP, Rails and most servers also read.
public struct PercentEscaping: Sendable, Hashable {
    /// The ASCII characters written without escaping.
    public let allowedCharacters: String
    /// Whether a space is written `+` (HTML forms) instead of `%20`.
    public let spaceAsPlus: Bool
    let table: [Bool]

    /// Creates an escaping with `allowedCharacters` (ASCII only; other characters are ignored).
    public init(allowedCharacters: String, spaceAsPlus: Bool = false) {
        var table = [Bool](repeating: false, count: 256)
        var kept = ""
        for byte in allowedCharacters.utf8 where byte < 0x80 && byte != UInt8(ascii: "%") && !table[Int(byte)] {
            table[Int(byte)] = true
            kept.unicodeScalars.append(Unicode.Scalar(byte))
        }
        self.allowedCharacters = kept
        self.spaceAsPlus = spaceAsPlus
        self.table = table
    }

    /// RFC 3986 unreserved characters: `A–Z a–z 0–9 - . _ ~`.
    public static let unreservedCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"

    /// Unreserved characters only, space as `%20`. The default for URL queries.
    public static let rfc3986 = PercentEscaping(allowedCharacters: unreservedCharacters)

    /// Unreserved characters only, space as `+`. The default for
    /// `application/x-www-form-urlencoded` bodies.
    public static let form = PercentEscaping(allowedCharacters: unreservedCharacters, spaceAsPlus: true)

    /// A copy that also leaves `characters` unescaped.
    public func allowing(_ characters: String) -> PercentEscaping {
        PercentEscaping(allowedCharacters: allowedCharacters + characters, spaceAsPlus: spaceAsPlus)
    }

    /// Appends the escaped UTF-8 of `text` to `output`.
    public func escape(_ text: String, into output: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if table[Int(byte)] {
                output.append(byte)
            } else if byte == 0x20 && spaceAsPlus {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
        }
    }

    /// The escaped form of `text`.
    public func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        escape(text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reverses escaping: `%XX` becomes the byte, `+` a space when `plusAsSpace`.
    ///
    /// A `%` not followed by two hex digits is kept as it is (as browsers do); the result is
    /// decoded as UTF-8 with invalid sequences replaced by U+FFFD.
    public static func unescape<Bytes: Collection<UInt8>>(_ bytes: Bytes, plusAsSpace: Bool) -> String
    where Bytes.Index == Int {
        String(decoding: unescapedBytes(bytes, plusAsSpace: plusAsSpace, strict: false)!, as: UTF8.self)
    }

    /// Reverses escaping like ``unescape(_:plusAsSpace:)``, or returns `nil` when a `%` is not
    /// followed by two hex digits or the unescaped bytes are not UTF-8 (as Foundation's
    /// `removingPercentEncoding` does). For text that is shown decoded only when that is exact.
    public static func unescapeStrictly<Bytes: Collection<UInt8>>(_ bytes: Bytes, plusAsSpace: Bool) -> String?
    where Bytes.Index == Int {
        unescapedBytes(bytes, plusAsSpace: plusAsSpace, strict: true).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// ``unescape(_:plusAsSpace:)`` of text: text with nothing to unescape (no `%`, and no `+`
    /// when `plusAsSpace`), the common case, is itself, without copying its bytes.
    package static func unescape(text: Substring, plusAsSpace: Bool) -> String {
        hasEscapes(text, plusAsSpace: plusAsSpace) ? unescape(Array(text.utf8), plusAsSpace: plusAsSpace) : String(text)
    }

    /// ``unescapeStrictly(_:plusAsSpace:)`` of text: text with nothing to unescape is itself.
    package static func unescapeStrictly(text: Substring, plusAsSpace: Bool) -> String? {
        hasEscapes(text, plusAsSpace: plusAsSpace)
            ? unescapeStrictly(Array(text.utf8), plusAsSpace: plusAsSpace) : String(text)
    }

    private static func hasEscapes(_ text: Substring, plusAsSpace: Bool) -> Bool {
        text.utf8.contains { $0 == UInt8(ascii: "%") || ($0 == UInt8(ascii: "+") && plusAsSpace) }
    }

    /// The unescaped bytes; a malformed `%` is kept, or gives `nil` when `strict`.
    private static func unescapedBytes<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, plusAsSpace: Bool, strict: Bool
    ) -> [UInt8]?
    where Bytes.Index == Int {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%") {
                if i + 2 < bytes.endIndex, let high = ByteClass.hexDigitValue(bytes[i + 1]),
                   let low = ByteClass.hexDigitValue(bytes[i + 2]) {
                    out.append(high << 4 | low)
                    i += 3
                    continue
                }
                if strict { return nil }
            }
            out.append(byte == UInt8(ascii: "+") && plusAsSpace ? 0x20 : byte)
            i += 1
        }
        return out
    }
}
