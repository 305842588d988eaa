public import Parley

/// The XML format: `application/xml`, `text/xml` and every `+xml` type (`application/atom+xml`,
/// `application/soap+xml`, and `image/svg+xml` through the registry's suffix rule), mapped to and
/// from `Value` by the rules in <doc:ValueMapping>, on system libxml2.
///
/// ```swift
/// let value = try XMLFormat().decode(Array("<user id=\"7\"><name>Ada</name></user>".utf8))
/// // ["user": ["@id": "7", "name": "Ada"]]
/// ```
///
/// Secure by default: no network access, no external entity or DTD is ever loaded, internal
/// entity expansion is bounded. The limits that apply are `DecodingLimits/maxBodyBytes`,
/// `DecodingLimits/maxDepth` (element nesting; libxml2 also stops at 256 unless `maxDepth` is
/// raised above the standard 512, which switches on libxml2's `XML_PARSE_HUGE` mode),
/// `DecodingLimits/maxNodes` (every node: elements, attributes, namespace declarations, texts,
/// comments …) and `DecodingLimits/maxExpansionRatio` (bytes of text and attribute values per
/// input byte, beyond the first 64 KiB); see "Limits and memory" in the module overview.
public struct XMLFormat: Format {
    /// Creates the format.
    public init() {}

    /// `"xml"`.
    public var name: String { "xml" }

    /// `application/xml`, `text/xml`, `application/*+xml`.
    public var decodableMediaTypes: [MediaType] {
        ["application/xml", "text/xml", "application/*+xml"]
    }

    /// `application/xml`.
    public var encodableMediaTypes: [MediaType] { ["application/xml"] }

    /// `true`: XML bodies are text (UTF-8 when Parley encodes them).
    public var isTextual: Bool { true }
    /// `true`: every scalar is text, so Codable decoding converts it to the type asked for.
    public var scalarsAreText: Bool { true }

    /// Decodes a document into a value by the documented mapping.
    ///
    /// - Parameters:
    ///   - bytes: The document.
    ///   - context: The media type and limits.
    /// - Returns: `{ rootName: content }`.
    /// - Throws: `FormatError` with code `.malformed` or `.truncated` (with line and column)
    ///   for a document that is not well-formed, `.limitExceeded` when a limit is reached.
    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        let builder = ValueBuilder(limits: context.limits)
        let parser = try SAXParser(bytes: bytes, handler: builder, charset: context.mediaType.charset)
        try parser.parse()
        guard let result = builder.result else {
            throw FormatError(.malformed, format: name, "no root element")
        }
        return result
    }

    /// Encodes a value as a UTF-8 document by the documented mapping.
    ///
    /// - Parameters:
    ///   - value: The value; `{ rootName: content }` gives the root element its name, any other
    ///     value is written inside `<root>`.
    ///   - context: The media type.
    /// - Returns: The document, with an XML declaration.
    /// - Throws: `FormatError` `.unsupportedValue` for a key that is not a valid XML name, an
    ///   attribute or `#text` that is not a scalar, a character XML 1.0 cannot hold, or nesting
    ///   deeper than 1,000.
    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        var writer = XMLWriter(declaration: true)
        try writer.document(value)
        return writer.bytes
    }
}
