/// A serialization format: the contract every format module implements, built-in or custom.
///
/// A format declares the media types it decodes and encodes (most preferred first, aliases
/// included), its default limits, and converts between bytes and the format-neutral ``Value``.
/// Register formats in a ``Registry``, either explicitly or automatically through the
/// `ParleyFormatRegistration` build-tool plugin (see <doc:WritingAFormat>).
///
/// ```swift
/// struct KeyValueFormat: Format {
///     var name: String { "kv" }
///     var decodableMediaTypes: [MediaType] { ["application/vnd.example.kv"] }
///     var encodableMediaTypes: [MediaType] { ["application/vnd.example.kv"] }
///     func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value { … }
///     func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] { … }
/// }
/// ```
public protocol Format: Sendable {
    /// A short, stable, lower-case name such as `"json"`, used in reports and errors.
    var name: String { get }

    /// The media types this format decodes, most preferred first, aliases included.
    ///
    /// Entries may be concrete (`application/json`), a suffix range (`application/*+json`),
    /// a type range (`text/*`) or `*/*`; see ``Registry`` for how a `Content-Type` is matched.
    var decodableMediaTypes: [MediaType] { get }

    /// The concrete media types this format encodes, most preferred first.
    var encodableMediaTypes: [MediaType] { get }

    /// The limits this format applies when the caller does not set its own.
    var defaultLimits: DecodingLimits { get }

    /// Whether the format's bodies are text, so an encoded `Content-Type` carries a `charset`.
    var isTextual: Bool { get }

    /// Whether a server compresses this format's bodies when the client accepts a content
    /// coding (see `ReplyOptions.compressionThreshold` in ParleyHTTP). Formats whose bodies are compressed
    /// already (PNG, JPEG, WebP, GIF) say `false`.
    var isCompressible: Bool { get }

    /// Whether a textual body of this format may be sent in another charset than the UTF-8 the
    /// encoder writes: transcoded, with the `charset` parameter naming it, when `Accept-Charset`
    /// prefers one (see `ReplyOptions.charsets` in ParleyHTTP). `false` for formats whose text must be
    /// UTF-8 (JSON, RFC 8259 §8.1) or names its own encoding (an XML declaration).
    var allowsCharsetTranscoding: Bool { get }

    /// Decodes a body.
    ///
    /// - Parameters:
    ///   - bytes: The whole body. Do not keep the pointer beyond the call.
    ///   - context: The received media type (with its parameters) and the limits in force.
    /// - Returns: The decoded value.
    /// - Throws: ``FormatError`` with code ``FormatError/Code/malformed`` (with a location
    ///   where known) or ``FormatError/Code/limitExceeded``; never traps on bad input.
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value

    /// Encodes a value.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - context: The media type chosen for the body (one of ``encodableMediaTypes``).
    /// - Returns: The body bytes.
    /// - Throws: ``FormatError`` with code ``FormatError/Code/unsupportedValue`` when the
    ///   value has no representation in this format.
    func encode(_ value: Value, context: EncodingContext) throws -> [UInt8]

    /// Decodes a `Decodable` type from a body.
    ///
    /// The default decodes the body's ``Value`` and reads `type` from it with `decoder`. A
    /// format may read the type straight from its bytes instead (JSON does), as long as the
    /// result and every error are the same.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - bytes: The whole body. Do not keep the pointer beyond the call.
    ///   - context: The received media type and the limits in force.
    ///   - decoder: The Codable settings (dates, user info).
    /// - Throws: ``FormatError`` for a body the format cannot read, `DecodingError` when the
    ///   body does not match `type`.
    func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer, context: DecodingContext,
                              decoder: ValueDecoder) throws -> T

    /// Whether every scalar of the format's values is text (XML, CSV, forms), so Codable decoding
    /// converts strings to the numbers and Booleans a type asks for
    /// (``ValueDecoder/convertsTextScalars``). The default is `false`.
    var scalarsAreText: Bool { get }

    /// The media type a body looks like, when it looks like this format's content.
    ///
    /// Used to catch mislabelled bodies (an HTML error page served as `application/json`, a JPEG
    /// labelled `image/png`) and to say what an unlabelled body looks like. Judge by magic bytes
    /// or the first (and last) characters only; never decode. The default is `nil`: the format
    /// cannot tell. ``Registry/sniff(_:)`` asks every registered format.
    ///
    /// - Parameter bytes: The whole body (after any `Content-Encoding` was undone).
    /// - Returns: The media type the bytes look like, or `nil`.
    func sniff(_ bytes: UnsafeRawBufferPointer) -> MediaType?

    /// Whether a body labelled `label` whose bytes look like `sniffed` is mislabelled, when this
    /// format decodes both types.
    ///
    /// The default is `false`: a format's media types are aliases of one kind of content.
    /// A format whose types name different kinds (PNG and JPEG) says which pairs differ.
    func contradicts(label: MediaType, sniffed: MediaType) -> Bool
}

extension Format {
    /// ``DecodingLimits/standard``.
    public var defaultLimits: DecodingLimits { .standard }

    /// `false`.
    public var isTextual: Bool { false }

    /// `true`: most bodies shrink; formats of compressed data say `false`.
    public var isCompressible: Bool { true }

    /// `false`: the format is sent in UTF-8 whatever `Accept-Charset` says.
    public var allowsCharsetTranscoding: Bool { false }

    /// `nil`: the format cannot tell its content from other bytes.
    public func sniff(_ bytes: UnsafeRawBufferPointer) -> MediaType? { nil }

    /// `false`: every media type of the format names the same kind of content.
    public func contradicts(label: MediaType, sniffed: MediaType) -> Bool { false }

    /// Nothing: a decode-only format.
    public var encodableMediaTypes: [MediaType] { [] }

    /// Throws ``FormatError/Code/unsupportedMediaType``: a decode-only format.
    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        throw FormatError(.unsupportedMediaType, format: name,
                          "\(name) does not encode \(context.mediaType)")
    }

    /// `false`: the format's numbers and Booleans are typed.
    public var scalarsAreText: Bool { false }

    /// Decodes the body's value, then `type` from it with `decoder` (converting text to numbers
    /// and Booleans when ``scalarsAreText``).
    public func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer, context: DecodingContext,
                                     decoder: ValueDecoder) throws -> T {
        var decoder = decoder
        if scalarsAreText { decoder.convertsTextScalars = true }
        return try decoder.decode(T.self, from: try decode(bytes, context: context))
    }

    /// Decodes a body held in any contiguous byte collection (`[UInt8]`, `Data`, …).
    ///
    /// - Parameters:
    ///   - body: The body bytes.
    ///   - mediaType: The media type the body was labelled with; defaults to the format's
    ///     first decodable type.
    ///   - limits: Limits to apply; defaults to ``defaultLimits``.
    public func decode<Bytes: Sequence<UInt8>>(
        _ body: Bytes, as mediaType: MediaType? = nil, limits: DecodingLimits? = nil
    ) throws -> Value {
        let context = DecodingContext(
            mediaType: mediaType ?? decodableMediaTypes.first ?? .applicationOctetStream,
            limits: limits ?? defaultLimits)
        return try withContiguousBytes(of: body) { try decode($0, context: context) }
    }

    /// Encodes a value as `mediaType`, or as the format's first encodable type.
    public func encode(_ value: Value, as mediaType: MediaType? = nil) throws -> [UInt8] {
        try encode(value, context: EncodingContext(
            mediaType: mediaType ?? encodableMediaTypes.first ?? .applicationOctetStream))
    }
}

extension Format {
    /// Whether the format's values have structure a `Decodable` type can be read from: every
    /// format but the core's plain text and raw bytes, whose value is one string or byte string.
    public var carriesStructuredValues: Bool { !(self is TextFormat || self is RawFormat) }
}

/// Calls `body` with the bytes of `bytes` as one contiguous buffer, copying only when the
/// collection has no contiguous storage. Inlinable, so that the public entry points that take any
/// sequence of bytes are specialised for their caller's (an `Array`, mostly).
@inlinable
package func withContiguousBytes<Bytes: Sequence<UInt8>, R>(
    of bytes: Bytes, _ body: (UnsafeRawBufferPointer) throws -> R
) rethrows -> R {
    if let result = try bytes.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
        return result
    }
    let copy = Array(bytes)
    return try copy.withUnsafeBytes(body)
}
