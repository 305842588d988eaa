import Parley

/// What a reply negotiates besides its media type, and how: the content codings, languages and
/// charsets a server offers (RFC 9110 §12.5.2–12.5.4).
///
/// The default negotiates the media type alone, as `Registry.reply(with:accepting:)`
/// does.
///
/// ```swift
/// let options = ReplyOptions(contentCodings: .zlib,                 // ParleyCompression
///                            languages: ["en", "de"],
///                            charsets: ["utf-8", "iso-8859-1"])
/// let reply = try server.reply(with: value, for: request, options: options)
/// ```
public struct ReplyOptions: Sendable {
    /// The content codings a reply may be compressed with: their ``ContentCodings/encoders``,
    /// in the server's order of preference. Default ``ContentCodings/none``: never compressed.
    public var contentCodings: ContentCodings
    /// The body is compressed only when it is larger than this many bytes (and its format is
    /// `Format.isCompressible`). Default 1,024: a smaller body gains less than a coding costs.
    public var compressionThreshold: Int
    /// The languages the reply is available in (BCP 47 tags), most preferred first. Default
    /// none: no language negotiation and no `Content-Language`.
    public var languages: [String]
    /// The language sent when `Accept-Language` accepts none of ``languages``, or there is no
    /// such field; `nil` takes the first of ``languages``.
    public var defaultLanguage: String?
    /// The charsets a textual reply may be sent in besides UTF-8 (IANA names, most preferred
    /// first), for formats that allow it (`Format.allowsCharsetTranscoding`). UTF-8 is always
    /// offered, first unless listed elsewhere. Default none: UTF-8 only.
    public var charsets: [String]
    /// Writes the negotiated charset. Default ``SystemCharsetConverter`` (the core's
    /// `Charset`s, then iconv).
    public var charsetConverter: any CharsetConverting

    /// Creates options.
    public init(contentCodings: ContentCodings = .none, compressionThreshold: Int = 1024,
                languages: [String] = [], defaultLanguage: String? = nil,
                charsets: [String] = [], charsetConverter: any CharsetConverting = SystemCharsetConverter()) {
        self.contentCodings = contentCodings
        self.compressionThreshold = compressionThreshold
        self.languages = languages
        self.defaultLanguage = defaultLanguage
        self.charsets = charsets
        self.charsetConverter = charsetConverter
    }

    /// The charsets offered: ``charsets`` with UTF-8 first unless listed.
    package var offeredCharsets: [String] {
        charsets.contains { Charset(name: $0) == .utf8 } ? charsets : ["utf-8"] + charsets
    }
}
