/// Raw bytes passed through untouched: `application/octet-stream` decodes to
/// ``Value/bytes(_:)``, and bytes (or a string, as UTF-8) encode as themselves.
///
/// Register `RawFormat(mediaTypes: [.any])` to accept every body as bytes.
public struct RawFormat: Format {
    /// The media types this instance decodes.
    public let decodableMediaTypes: [MediaType]

    /// Creates the raw format for `mediaTypes` (default `application/octet-stream`).
    public init(mediaTypes: [MediaType] = [.applicationOctetStream]) {
        self.decodableMediaTypes = mediaTypes
    }

    public var name: String { "raw" }
    public var encodableMediaTypes: [MediaType] { [.applicationOctetStream] }

    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        try context.limits.checkBodySize(bytes.count, format: name)
        return .bytes(Array(bytes))
    }

    /// Common opaque files by their signatures, so a PDF or an archive served under another
    /// label is recognised: `application/pdf` (`%PDF-`), `application/gzip` (`1F 8B 08`) and
    /// `application/zip` (`PK 03 04`).
    public func sniff(_ bytes: UnsafeRawBufferPointer) -> MediaType? {
        if TextSniffing.bytes(bytes, startWith: "%PDF-".utf8) { return "application/pdf" }
        if TextSniffing.bytes(bytes, startWith: [0x1F, 0x8B, 0x08]) { return "application/gzip" }
        if TextSniffing.bytes(bytes, startWith: [0x50, 0x4B, 0x03, 0x04]) { return "application/zip" }
        return nil
    }

    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        switch value {
        case .bytes(let b): return b
        case .string(let s): return Array(s.utf8)
        case .null: return []
        default: throw FormatError(.unsupportedValue, format: name, "raw bodies are bytes, not a \(value.kindName)")
        }
    }
}
