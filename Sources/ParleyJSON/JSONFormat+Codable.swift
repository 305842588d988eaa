public import Parley

extension JSONFormat {
    /// Decodes a `Decodable` type from a JSON body, through the value tree.
    ///
    /// ```swift
    /// let user = try JSONFormat().decode(User.self, from: body)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - body: The JSON bytes (`[UInt8]`, `Data`, …).
    ///   - decoder: The Codable decoder settings (dates, user info).
    ///   - limits: The limits to parse under; defaults to `Format/defaultLimits`.
    /// - Returns: The decoded instance.
    /// - Throws: `FormatError` for input that is not JSON (see ``decode(_:context:)``), or
    ///   `DecodingError` when the JSON does not match `type`.
    public func decode<T: Decodable, Bytes: Sequence<UInt8>>(
        _ type: T.Type, from body: Bytes, decoder: ValueDecoder = ValueDecoder(), limits: DecodingLimits? = nil
    ) throws -> T {
        let value = try decode(body, limits: limits)
        return try decoder.decode(T.self, from: value)
    }

    /// Encodes an `Encodable` value as JSON, through the value tree.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - encoder: The Codable encoder settings (dates, data, user info).
    /// - Returns: The JSON text (UTF-8).
    /// - Throws: `EncodingError` from the value's `encode(to:)`, or `FormatError` with
    ///   `FormatError/Code/unsupportedValue` for a non-finite floating-point number.
    public func encode<T: Encodable>(_ value: T, encoder: ValueEncoder = ValueEncoder()) throws -> [UInt8] {
        try encodeValue(try encoder.encode(value))
    }
}
