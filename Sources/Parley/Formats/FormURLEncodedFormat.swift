/// HTML form bodies, `application/x-www-form-urlencoded`: objects encode through a
/// ``QueryEncoder`` (space as `+`) and bodies decode through a ``FormDecoder`` into an object
/// of strings.
///
/// The media type carries no `charset` parameter (the WHATWG URL standard defines none): the
/// output is ASCII, and decoded text is UTF-8. Only objects encode; anything else throws
/// ``FormatError/Code/unsupportedValue``.
public struct FormURLEncodedFormat: Format {
    /// The encoder used for bodies. Default ``QueryEncoder/form``.
    public var encoder: QueryEncoder
    /// The decoder used for bodies. Default `FormDecoder()`.
    public var decoder: FormDecoder

    /// Creates the format with the given strategies.
    public init(encoder: QueryEncoder = .form, decoder: FormDecoder = FormDecoder()) {
        self.encoder = encoder
        self.decoder = decoder
    }

    /// `application/x-www-form-urlencoded`.
    public static let mediaType = MediaType(
        lowercasedType: "application", subtype: "x-www-form-urlencoded", parameters: [])

    public var name: String { "form" }
    public var decodableMediaTypes: [MediaType] { [Self.mediaType] }
    public var encodableMediaTypes: [MediaType] { [Self.mediaType] }
    /// `true`: every field is text, so Codable decoding converts it to the type asked for.
    public var scalarsAreText: Bool { true }

    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        var decoder = self.decoder
        decoder.limits.maxBodyBytes = context.limits.maxBodyBytes
        decoder.limits.maxNodes = context.limits.maxNodes
        decoder.limits.maxDepth = min(decoder.limits.maxDepth, context.limits.maxDepth)
        return try decoder.decode(UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                                      count: bytes.count))
    }

    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        do {
            return try encoder.encodeBytes(value)
        } catch var error as FormatError {
            error.format = name
            throw error
        }
    }
}
