public import Parley
import ParleyHTTP
public import Vapor

/// Vapor's `ContentEncoder` and `ContentDecoder` for one media type, backed by a `Registry`.
///
/// Encoding goes through the registry's reply path, so the body and its `Content-Type` (with
/// `charset=utf-8` for textual formats) are exactly what a negotiated reply in that type holds.
/// Decoding picks the format by the message's own `Content-Type` (its parameters, `charset`
/// included, are honoured) and decodes under the registry's limits.
///
/// You rarely create one: `ContentConfiguration.use(_:)` installs one per media type.
///
/// ```swift
/// let yaml = ParleyContentCoder(registry: registry, mediaType: "application/yaml")
/// try response.content.encode(user, using: yaml)
/// ```
public struct ParleyContentCoder: Vapor.ContentEncoder, Vapor.ContentDecoder {
    /// The formats to encode and decode with.
    public let registry: Registry
    /// The media type this coder writes, and reads when a message carries no usable `Content-Type`.
    public let mediaType: MediaType
    /// Turns `Encodable` values into value trees.
    public var valueEncoder: ValueEncoder
    /// Turns value trees into `Decodable` values.
    public var valueDecoder: ValueDecoder

    /// Creates a coder for `mediaType`.
    public init(registry: Registry, mediaType: MediaType,
                valueEncoder: ValueEncoder = ValueEncoder(), valueDecoder: ValueDecoder = ValueDecoder()) {
        self.registry = registry
        self.mediaType = mediaType
        self.valueEncoder = valueEncoder
        self.valueDecoder = valueDecoder
    }

    /// Encodes `encodable` in ``mediaType`` and sets `Content-Type`.
    ///
    /// - Throws: ``Parley/ParleyError`` with `ParleyError.Code.encodingFailed`, or
    ///   `ParleyError.Code.notAcceptable` when the registry cannot write ``mediaType``.
    public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
        try encode(encodable, to: &body, headers: &headers, userInfo: [:])
    }

    /// Encodes `encodable` in ``mediaType`` with `userInfo` added to the encoder's, and sets `Content-Type`.
    ///
    /// - Throws: as ``encode(_:to:headers:)``.
    public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders,
                                     userInfo: [CodingUserInfoKey: any Sendable]) throws {
        var encoder = valueEncoder
        encoder.userInfo.merge(userInfo) { _, new in new }
        let reply = try ParleyServer(registry: registry, valueEncoder: encoder)
            .reply(encoding: encodable, accepting: mediaType.description)
        body.writeBytes(reply.body)
        headers.replaceOrAdd(name: .contentType, value: reply.contentType.description)
    }

    /// Decodes `decodable` from `body`, with the format the `Content-Type` in `headers` selects.
    ///
    /// - Throws: ``Parley/ParleyError``: `ParleyError.Code.unsupportedMediaType` (415),
    ///   a format failure (400), `ParleyError.Code.limitExceeded` (413), or
    ///   `ParleyError.Code.decodingFailed` naming the coding path.
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders) throws -> D {
        try decode(D.self, from: body, headers: headers, userInfo: [:])
    }

    /// Decodes `decodable` from `body` with `userInfo` added to the decoder's.
    ///
    /// - Throws: as ``decode(_:from:headers:)``.
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders,
                                     userInfo: [CodingUserInfoKey: any Sendable]) throws -> D {
        var decoder = valueDecoder
        decoder.userInfo.merge(userInfo) { _, new in new }
        // Vapor chose this coder by the field's type and subtype; a field Parley cannot read
        // (the middleware answers those with 400 first) falls back to the coder's own type.
        let contentType = headers.first(name: .contentType).flatMap({ MediaType($0) }) ?? mediaType
        return try body.withUnsafeReadableBytes { bytes in
            try registry.decodeContent(D.self, from: bytes, contentType: contentType, decoder: decoder)
        }
    }
}
