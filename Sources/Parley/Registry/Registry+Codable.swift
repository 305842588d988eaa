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
}
