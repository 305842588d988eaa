public import Parley

extension JSONFormat {
    /// Decodes a `Decodable` type from a JSON body.
    ///
    /// ```swift
    /// let user = try JSONFormat().decode(User.self, from: body)
    /// ```
    ///
    /// The type is read straight from the bytes, with no value tree in between (see
    /// ``decode(_:from:context:decoder:)``); the result, and every error, is the same as
    /// decoding the body's `Value` with `ValueDecoder`.
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
        let context = DecodingContext(mediaType: Self.applicationJSON, limits: limits ?? defaultLimits)
        return try withContiguousBytes(of: body) { bytes in
            try decode(T.self, from: bytes, context: context, decoder: decoder)
        }
    }

    /// Decodes a `Decodable` type from a JSON body without building a value tree: the body is
    /// parsed into a flat tape (by the same rules, limits and errors as
    /// ``decode(_:context:)``) and `type` is read from it. The result, and every error, is the
    /// same as decoding the body's `Value` with `decoder`. With `Options/removesNullValues`
    /// set, decoding goes through the value tree, so the nulls are removed first.
    ///
    /// `Registry` and `DecodableResponseSerializer` call this for JSON bodies.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - bytes: The whole body.
    ///   - context: The received media type (its `charset` is honoured) and the limits.
    ///   - decoder: The Codable settings (dates, user info).
    /// - Throws: `FormatError` for input that is not JSON, `DecodingError` when it does not match `type`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer, context: DecodingContext,
                                     decoder: ValueDecoder) throws -> T {
        if options.removesNullValues {
            return try decoder.decode(T.self, from: try decode(bytes, context: context))
        }
        let document = try withUTF8Text(bytes, context: context) { (text, offsetBase) throws(FormatError) in
            try JSONTape.parse(text, options: options, limits: context.limits, offsetBase: offsetBase)
        }
        switch document {
        case .tape(let tape):
            return try JSONTapeDecoder(tape: tape, index: 0, codingPath: [], options: decoder).decodeDocument(
                as: T.self)
        case .blank(let value):
            return try decoder.decode(T.self, from: value)
        }
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
