import Parley

extension ParleyServer {
    /// Encodes `value` as `choice` says; when that format cannot hold the value (an object as
    /// `text/plain` or `application/octet-stream`), as the type `accept` prefers among those
    /// whose format can. None of them acceptable is 406 listing the types that can encode
    /// `value`, never a server error: the client asked for something this value has no form in.
    func encodeReply(_ value: Value, choice: Registry.EncoderChoice,
                     accepting accept: AcceptField) throws(ParleyError) -> (reply: Reply, format: any Format) {
        do {
            return (try encodeReply(value, format: choice.format, as: choice.mediaType), choice.format)
        } catch where error.code == .encodingFailed {
            let capable = offersEncoding(value)
            let negotiator = AcceptNegotiator(offers: capable.map(\.mediaType))
            guard let index = negotiator.preferredOfferIndex(for: accept) else {
                var refusal = ParleyError.notAcceptable(accept.fieldValue, available: capable.map(\.mediaType))
                refusal.message += " (\(choice.format.name) cannot encode this value)"
                refusal.underlying = [error]
                throw refusal
            }
            let fallback = capable[index]
            return (try encodeReply(value, format: fallback.format, as: fallback.mediaType), fallback.format)
        }
    }

    /// The encodable types, in preference order, whose format encodes `value` (each format is
    /// tried once, with its first type): what a 406 for `value` lists.
    func offersEncoding(_ value: Value) -> [(format: any Format, mediaType: MediaType)] {
        var verdicts: [Int: Bool] = [:]
        var capable: [(format: any Format, mediaType: MediaType)] = []
        for (offer, formatIndex) in zip(registry.encodableMediaTypes, registry.offerFormats) {
            let format = registry.formats[formatIndex]
            if verdicts[formatIndex] == nil {
                verdicts[formatIndex] = (try? format.encode(value, context: EncodingContext(mediaType: offer))) != nil
            }
            if verdicts[formatIndex] == true { capable.append((format, offer)) }
        }
        return capable
    }
}
