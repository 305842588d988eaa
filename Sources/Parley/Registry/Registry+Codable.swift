extension Registry {
    /// Decodes a body with the format its `Content-Type` selects, then into `T`.
    ///
    /// - Throws: ``ParleyError`` (415, a format failure, or ``ParleyError/Code/decodingFailed``
    ///   naming the coding path when the value does not fit `T`).
    public func decode<T: Decodable, Bytes: Sequence<UInt8>>(
        _ type: T.Type, from body: Bytes, contentType: MediaType, decoder: ValueDecoder = ValueDecoder()
    ) throws -> T {
        try requireDecoder(for: contentType).decode(T.self, from: body, contentType: contentType, decoder: decoder)
    }

    /// Encodes an `Encodable` reply in the format the `Accept` field prefers.
    ///
    /// - Throws: ``ParleyError`` with ``ParleyError/Code/notAcceptable`` (406) or
    ///   ``ParleyError/Code/encodingFailed``.
    public func reply<T: Encodable>(encoding value: T, accepting accept: String?,
                                    encoder: ValueEncoder = ValueEncoder()) throws -> Reply {
        let tree: Value
        do { tree = try encoder.encode(value) } catch {
            throw ParleyError(.encodingFailed, "cannot encode \(T.self): \(error)", underlying: [error])
        }
        return try reply(with: tree, accepting: accept)
    }
}
