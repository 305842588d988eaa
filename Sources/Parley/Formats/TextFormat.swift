/// Plain text: decodes `text/plain` and any other `text/*` body (`text/javascript` included: it
/// is JavaScript, RFC 9239, not JSON) to a ``Value/string(_:)``,
/// honouring the `charset` parameter (then a byte-order mark, then UTF-8); encodes strings as
/// `text/plain; charset=utf-8`.
///
/// Other values encode as their plain-text rendering: numbers and Booleans as literals, `null` as
/// an empty body; containers are refused.
public struct TextFormat: Format {
    /// Creates the text format.
    public init() {}

    public var name: String { "text" }
    public var decodableMediaTypes: [MediaType] {
        [.textPlain, MediaType(lowercasedType: "text", subtype: "*", parameters: [])]
    }
    public var encodableMediaTypes: [MediaType] { [.textPlain] }
    public var isTextual: Bool { true }
    public var allowsCharsetTranscoding: Bool { true }

    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        try context.limits.checkBodySize(bytes.count, format: name)
        return .string(try Charset.decodeText(bytes, mediaType: context.mediaType, format: name))
    }

    /// `text/html` when the body opens like an HTML page (``TextSniffing/looksLikeHTML(_:)``).
    public func sniff(_ bytes: UnsafeRawBufferPointer) -> MediaType? {
        TextSniffing.looksLikeHTML(bytes) ? MediaType(lowercasedType: "text", subtype: "html", parameters: []) : nil
    }

    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        let charset = context.mediaType.charset.flatMap { Charset(name: $0) } ?? .utf8
        let text: String
        switch value {
        case .null: text = ""
        case .string(let s): text = s
        case .bool(let b): text = b ? "true" : "false"
        case .integer(let i): text = String(i)
        case .float(let d): text = String(d)
        case .number(let n): text = n
        case .bytes(let b): return b
        default:
            throw FormatError(.unsupportedValue, format: name, "cannot write a \(value.kindName) as plain text")
        }
        return try charset.encode(text, format: name)
    }
}
