extension Registry {
    /// The format and media type chosen to encode a reply.
    public struct EncoderChoice: Sendable {
        /// The format that encodes the reply.
        public let format: any Format
        /// The media type to encode as, and to send (with a charset when textual).
        public let mediaType: MediaType
    }

    /// The encoder the `Accept` field prefers among every encodable type, or `nil` when
    /// nothing is acceptable (answer 406).
    ///
    /// - Parameter accept: The `Accept` field value, or `nil` when the request had none.
    public func encoder(forAccept accept: String?) -> EncoderChoice? {
        guard let index = offers.preferredOfferIndex(forAccept: accept) else { return nil }
        return EncoderChoice(format: formats[offerFormats[index]], mediaType: offers.offers[index])
    }

    /// The encoder a scanned `Accept` field prefers among every encodable type, or `nil` when
    /// nothing is acceptable (answer 406, or 400 when ``AcceptField/isMalformed``). Reads no text.
    public func encoder(for accept: AcceptField) -> EncoderChoice? {
        guard let index = offers.preferredOfferIndex(for: accept) else { return nil }
        return EncoderChoice(format: formats[offerFormats[index]], mediaType: offers.offers[index])
    }

    /// An `Accept` field value listing the decodable types with q-values in preference order:
    /// the first format's types at q=1, each later format 0.1 lower (never below 0.1).
    /// Suffix ranges are left out (`application/*+json` is a literal in `Accept`).
    ///
    /// - Parameters:
    ///   - includeAny: Append `*/*;q=0.01` so a server may still answer something.
    ///   - structuredOnly: Leave out the core's text and raw formats: what a request for a
    ///     `Decodable` type sends, since such a type cannot be read from them.
    public func acceptHeaderValue(includeAny: Bool = false, structuredOnly: Bool = false) -> String {
        var parts: [String] = []
        var seen = Set<MediaType>()
        var step = 0
        for format in formats where !structuredOnly || format.carriesStructuredValues {
            let types = format.decodableMediaTypes.filter { !($0.subtype.hasPrefix("*+")) && $0.type != "*" }
            guard !types.isEmpty else { continue }
            let tenths = max(1, 10 - step)
            for type in types where seen.insert(type).inserted {
                parts.append(tenths == 10 ? type.description : "\(type.description);q=0.\(tenths)")
            }
            step += 1
        }
        if includeAny { parts.append("*/*;q=0.01") }
        return parts.joined(separator: ", ")
    }
}
