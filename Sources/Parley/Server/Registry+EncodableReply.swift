public import HTTPTypes

extension Registry {
    /// Encodes an `Encodable` value for `request`, negotiating as
    /// ``reply(with:for:options:)-(Value,_,_)`` does: the media type from `Accept`, and as
    /// `options` offer them the content coding, language and charset.
    ///
    /// ```swift
    /// struct Book: Codable { let id: Int; let title: String }
    /// let reply = try registry.reply(encoding: Book(id: 7, title: "Dune"), for: request)
    /// // reply.body in the format the request's Accept prefers; reply.response() carries Content-Type and Vary
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to send.
    ///   - request: The request whose `Accept…` fields are read.
    ///   - options: What to negotiate besides the type. The default negotiates the type alone.
    ///   - encoder: The Codable settings (dates, data, keys).
    /// - Throws: ``ParleyError`` with ``ParleyError/Code/notAcceptable`` (answer 406, listing the
    ///   types that can encode the value) or ``ParleyError/Code/encodingFailed`` when `value`'s
    ///   `encode(to:)` throws.
    public func reply<T: Encodable>(encoding value: T, for request: HTTPRequest, options: ReplyOptions = ReplyOptions(),
                                    encoder: ValueEncoder = ValueEncoder()) throws(ParleyError) -> Reply {
        let tree: Value
        do { tree = try encoder.encode(value) } catch {
            throw ParleyError(.encodingFailed, "cannot encode \(T.self): \(error)", underlying: [error])
        }
        return try reply(with: tree, for: request, options: options)
    }

    /// Encodes `value` as `choice` says; when that format cannot hold the value (an object as
    /// `text/plain` or `application/octet-stream`), as the type `accept` prefers among those
    /// whose format can. None of them acceptable is 406 listing the types that can encode
    /// `value`, never a server error: the client asked for something this value has no form in.
    func encodeReply(_ value: Value, choice: EncoderChoice,
                     accepting accept: String?) throws(ParleyError) -> (reply: Reply, format: any Format) {
        do {
            return (try encodeReply(value, format: choice.format, as: choice.mediaType), choice.format)
        } catch where error.code == .encodingFailed {
            let capable = offersEncoding(value)
            let negotiator = AcceptNegotiator(offers: capable.map(\.mediaType))
            guard let index = negotiator.preferredOfferIndex(forAccept: accept) else {
                var refusal = ParleyError.notAcceptable(accept, available: capable.map(\.mediaType))
                refusal.message += " (\(choice.format.name) cannot encode this value)"
                refusal.underlying = [error]
                throw refusal
            }
            let fallback = capable[index]
            return (try encodeReply(value, format: fallback.format, as: fallback.mediaType), fallback.format)
        }
    }

    /// The encodable types, in preference order, whose format encodes `value` (each format is
    /// tried once, with its first type).
    private func offersEncoding(_ value: Value) -> [EncoderChoice] {
        var verdicts: [Int: Bool] = [:]
        var capable: [EncoderChoice] = []
        for (offer, formatIndex) in zip(offers.offers, offerFormats) {
            let format = formats[formatIndex]
            if verdicts[formatIndex] == nil {
                verdicts[formatIndex] = (try? format.encode(value, context: EncodingContext(mediaType: offer))) != nil
            }
            if verdicts[formatIndex] == true { capable.append(EncoderChoice(format: format, mediaType: offer)) }
        }
        return capable
    }
}
