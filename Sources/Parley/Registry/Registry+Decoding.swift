extension Registry {
    /// The format chosen to decode a `Content-Type`, and why.
    public struct DecoderMatch: Sendable {
        /// The format that decodes the body.
        public let format: any Format
        /// The registered media type (or range) that matched.
        public let registeredType: MediaType
        /// How the match was made.
        public let rank: MatchRank
        /// The limits in force for this format in the registry.
        public let limits: DecodingLimits
        /// The format's position in the registry's ``Registry/formats``.
        package let formatIndex: Int
    }

    /// How a `Content-Type` matched a registered type, from strongest to weakest.
    public enum MatchRank: Int, Sendable, Comparable, CustomStringConvertible {
        /// `*/*` was registered.
        case anyType = 0
        /// A `type/*` range was registered.
        case typeRange = 1
        /// The structured-syntax suffix's base type was registered (`+json` → `application/json`).
        case suffixBaseType = 2
        /// A `type/*+suffix` range was registered.
        case suffixRange = 3
        /// The type and subtype were registered.
        case exact = 4

        public static func < (lhs: MatchRank, rhs: MatchRank) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String {
            switch self {
            case .anyType: "*/*"
            case .typeRange: "type range"
            case .suffixBaseType: "suffix base type"
            case .suffixRange: "suffix range"
            case .exact: "exact"
            }
        }
    }

    /// The format that decodes bodies labelled `contentType`, by DESIGN's matching rules:
    /// exact type/subtype (more matching registered parameters first) > `type/*+suffix` >
    /// the suffix's base type > `type/*` > `*/*`, ties by registration order.
    ///
    /// A wildcard `Content-Type` matches nothing; its parameters never prevent a match.
    public func decoder(for contentType: MediaType) -> DecoderMatch? {
        guard let match = table.match(contentType) else { return nil }
        return DecoderMatch(format: formats[match.owner], registeredType: match.registered, rank: match.rank,
                            limits: limitsByFormat[match.owner], formatIndex: match.owner)
    }

    /// The format that decodes bodies labelled with this `Content-Type` field value, or `nil`
    /// when the value is unparsable, empty, a range, or matches no registered type.
    public func decoder(forContentType value: String) -> DecoderMatch? {
        guard let type = try? MediaType(parsing: value) else { return nil }
        return decoder(for: type)
    }

    /// Decodes a body with the format its `Content-Type` selects, within that format's limits.
    ///
    /// - Throws: ``ParleyError`` with ``ParleyError/Code/unsupportedMediaType`` when no format
    ///   matches, or the format's ``FormatError`` wrapped as ``ParleyError/Code/decodingFailed``
    ///   or ``ParleyError/Code/limitExceeded``.
    public func decode<Bytes: Sequence<UInt8>>(_ body: Bytes, contentType: MediaType) throws(ParleyError) -> Value {
        try requireDecoder(for: contentType).decode(body, contentType: contentType)
    }

    /// The decoder match for `contentType`, or ``ParleyError/Code/unsupportedMediaType`` listing
    /// what this registry decodes.
    func requireDecoder(for contentType: MediaType) throws(ParleyError) -> DecoderMatch {
        guard let match = decoder(for: contentType) else {
            throw ParleyError.unsupportedMediaType(contentType.description, acceptable: decodableMediaTypes)
        }
        return match
    }
}

extension Registry.DecoderMatch {
    /// Decodes `body` with this match's format and limits.
    ///
    /// - Throws: ``ParleyError`` wrapping the format's error.
    @inlinable
    public func decode<Bytes: Sequence<UInt8>>(_ body: Bytes, contentType: MediaType) throws(ParleyError) -> Value {
        try withContiguousBytes(of: body) { decodeResult(ofBytes: $0, contentType: contentType) }.get()
    }

    /// ``decode(_:contentType:)`` of contiguous bytes: the work, not generic, so a caller in
    /// another module calls it directly rather than through a generic entry point.
    @usableFromInline
    func decodeResult(ofBytes body: UnsafeRawBufferPointer, contentType: MediaType) -> Result<Value, ParleyError> {
        Result { () throws(ParleyError) in
            try run(
                body, contentType: contentType,
                failure: { ParleyError(.decodingFailed, "\(format.name) failed: \($0)", underlying: [$0]) }
            ) { bytes, context in
                try format.decode(bytes, context: context)
            }
        }
    }

    /// Decodes `type` from `body` with this match's format and limits, through the format's
    /// `Format/decode(_:from:context:decoder:)`.
    ///
    /// - Throws: ``ParleyError`` wrapping the format's error, or with
    ///   ``ParleyError/Code/decodingFailed`` naming the coding path when the body does not fit `type`.
    public func decode<T: Decodable, Bytes: Sequence<UInt8>>(
        _ type: T.Type, from body: Bytes, contentType: MediaType, decoder: ValueDecoder
    ) throws(ParleyError) -> T {
        try run(
            body, contentType: contentType,
            failure: {
                ParleyError(
                    .decodingFailed, "cannot decode \(T.self): \($0)", receivedContentType: contentType.description,
                    underlying: [$0])
            }
        ) { bytes, context in
            try format.decode(T.self, from: bytes, context: context, decoder: decoder)
        }
    }

    /// Runs `decode` on `body` under this match's limits (the body size checked first). A
    /// `FormatError` becomes its ``ParleyError``; any other error the one `failure` makes of it.
    private func run<R, Bytes: Sequence<UInt8>>(
        _ body: Bytes, contentType: MediaType, failure: (any Error) -> ParleyError,
        _ decode: (UnsafeRawBufferPointer, DecodingContext) throws -> R
    ) throws(ParleyError) -> R {
        let context = DecodingContext(mediaType: contentType, limits: limits)
        do {
            return try withContiguousBytes(of: body) { bytes in
                try context.limits.checkBodySize(bytes.count, format: format.name)
                return try decode(bytes, context)
            }
        } catch let error as FormatError {
            throw ParleyError(formatError: error)
        } catch {
            throw failure(error)
        }
    }
}
