public import HTTPTypes

extension Registry {
    /// Encodes `value` in the format the request's `Accept` prefers (RFC 9110 §12.5.1).
    ///
    /// The reply's `Content-Type` carries `charset=utf-8` when the format is textual, and
    /// `Vary: Accept` is always set because the representation depends on that field.
    ///
    /// ```swift
    /// let reply = try registry.reply(with: ["id": 7], accepting: request.headerFields[.accept])
    /// // reply.contentType == application/json; reply.headerFields[.vary] == "Accept"
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to send.
    ///   - accept: The request's `Accept` field value (all fields joined by `, `), or `nil`.
    /// - Throws: ``ParleyError`` with ``ParleyError/Code/notAcceptable`` (answer 406, listing
    ///   the available types) or ``ParleyError/Code/encodingFailed``.
    public func reply(with value: Value, accepting accept: String?) throws(ParleyError) -> Reply {
        guard let choice = encoder(forAccept: accept) else {
            throw ParleyError.notAcceptable(accept, available: encodableMediaTypes)
        }
        return try encodeReply(value, format: choice.format, as: choice.mediaType)
    }

    /// Encodes `value` for `request`, reading its `Accept` fields.
    ///
    /// - Throws: ``ParleyError`` as ``reply(with:accepting:)-(Value,_)`` does.
    public func reply(with value: Value, for request: HTTPRequest) throws(ParleyError) -> Reply {
        let accept = request.headerFields[values: .accept]
        return try reply(with: value, accepting: accept.isEmpty ? nil : accept.joined(separator: ", "))
    }

    /// Encodes a problem (RFC 9457) in the format the request's `Accept` prefers, JSON when it
    /// says nothing.
    ///
    /// When JSON is chosen the reply is `application/problem+json`, when XML is chosen
    /// `application/problem+xml` (the XML form of RFC 9457 Appendix B, ``ProblemDetails/xmlValue``);
    /// `Accept: application/json` or `application/xml` choose them too. Another format the
    /// client asks for (YAML, …) encodes ``ProblemDetails/value`` under its own type.
    ///
    /// A problem is usually the answer to a failure, so it is never refused with 406: when
    /// nothing acceptable is available it is sent in the most preferred type (RFC 9110 §15.5.7
    /// allows a response the `Accept` field did not ask for).
    ///
    /// ```swift
    /// let problem = ProblemDetails(.notFound, detail: "No user 7.")
    /// let reply = try registry.reply(with: problem, accepting: request.headerFields[.accept])
    /// let head = reply.response(status: .notFound)   // Content-Type: application/problem+json; charset=utf-8
    /// ```
    ///
    /// - Parameters:
    ///   - problem: The problem to send; its ``ProblemDetails/status`` is not applied to the
    ///     reply, pass it to ``Reply/response(status:)``.
    ///   - accept: The request's `Accept` field value (all fields joined by `, `), or `nil`.
    /// - Throws: ``ParleyError`` with ``ParleyError/Code/encodingFailed`` (an extension member
    ///   the format cannot write), or ``ParleyError/Code/notAcceptable`` when the registry
    ///   encodes nothing.
    public func reply(with problem: ProblemDetails, accepting accept: String?) throws(ParleyError) -> Reply {
        let offers = problemOffers()
        guard !offers.isEmpty else { throw ParleyError.notAcceptable(accept, available: encodableMediaTypes) }
        let chosen = offers[AcceptNegotiator(offers: offers.map(\.offer)).preferredOfferIndex(forAccept: accept) ?? 0]
        return try encodeReply(chosen.isXML ? problem.xmlValue : problem.value, format: formats[chosen.format], as: chosen.sent)
    }

    /// Encodes a problem for `request`, reading its `Accept` fields.
    ///
    /// - Throws: ``ParleyError`` as ``reply(with:accepting:)-(ProblemDetails,_)`` does.
    public func reply(with problem: ProblemDetails, for request: HTTPRequest) throws(ParleyError) -> Reply {
        let accept = request.headerFields[values: .accept]
        return try reply(with: problem, accepting: accept.isEmpty ? nil : accept.joined(separator: ", "))
    }

    /// Decodes a request body by its `Content-Type`.
    ///
    /// - Throws: ``ParleyError`` with ``ParleyError/Code/unsupportedMediaType`` (answer 415; see
    ///   ``unsupportedMediaTypeFields``) when the type is missing, malformed or not decodable,
    ///   or the format's failure as ``ParleyError/Code/decodingFailed`` /
    ///   ``ParleyError/Code/limitExceeded`` (answer 400 / 413).
    public func decodeRequestBody(_ body: [UInt8], of request: HTTPRequest) throws(ParleyError) -> Value {
        guard let received = request.headerFields[.contentType] else {
            if body.isEmpty { return .null }
            throw ParleyError(.unsupportedMediaType, "request body has no Content-Type",
                              body: body, acceptableTypes: decodableMediaTypes)
        }
        let type: MediaType
        do { type = try MediaType(parsing: received) } catch {
            throw ParleyError(.unsupportedMediaType, "malformed Content-Type '\(received)': \(error)",
                              body: body, receivedContentType: received, acceptableTypes: decodableMediaTypes)
        }
        guard let match = decoder(for: type) else {
            var error = ParleyError.unsupportedMediaType(received, acceptable: decodableMediaTypes)
            error.body = body
            throw error
        }
        do {
            return try match.decode(body, contentType: type)
        } catch {
            throw error.with(response: nil, body: body)
        }
    }

    /// The fields of a 415 answer: `Accept` listing the decodable types (RFC 9110 §15.5.16).
    public var unsupportedMediaTypeFields: HTTPFields {
        var fields = HTTPFields()
        fields[.accept] = acceptHeaderValue()
        return fields
    }

    /// A problem reply's candidates, most preferred first: `application/problem+json` and
    /// `application/problem+xml` when a format encodes `application/json` or `application/xml`,
    /// then every encodable type; a type of those two formats is sent as its problem type.
    private func problemOffers() -> [(offer: MediaType, format: Int, sent: MediaType, isXML: Bool)] {
        let offered = encodableMediaTypes
        let jsonFormat = offered.firstIndex { $0.essence == "application/json" }.map { offerFormats[$0] }
        let xmlFormat = offered.firstIndex { $0.essence == "application/xml" }.map { offerFormats[$0] }
        var offers: [(offer: MediaType, format: Int, sent: MediaType, isXML: Bool)] = []
        if let jsonFormat { offers.append((Self.problemJSON, jsonFormat, Self.problemJSON, false)) }
        if let xmlFormat { offers.append((Self.problemXML, xmlFormat, Self.problemXML, true)) }
        for (offer, format) in zip(offered, offerFormats) {
            if format == jsonFormat {
                offers.append((offer, format, Self.problemJSON, false))
            } else if format == xmlFormat {
                offers.append((offer, format, Self.problemXML, true))
            } else {
                offers.append((offer, format, offer, false))
            }
        }
        return offers
    }

    private static let problemJSON = MediaType(lowercasedType: "application", subtype: "problem+json", parameters: [])
    private static let problemXML = MediaType(lowercasedType: "application", subtype: "problem+xml", parameters: [])

    /// Encodes a reply body with `format` as `mediaType` (with `charset=utf-8` when the format
    /// is textual), and its `Content-Type` and `Vary: Accept` fields.
    private func encodeReply(_ value: Value, format: any Format, as mediaType: MediaType) throws(ParleyError) -> Reply {
        var contentType = mediaType
        if format.isTextual && contentType.charset == nil {
            contentType = contentType.settingParameter("charset", to: "utf-8")
        }
        let body: [UInt8]
        do {
            body = try format.encode(value, context: EncodingContext(mediaType: contentType))
        } catch {
            throw ParleyError(.encodingFailed, "\(format.name) cannot encode the reply: \(error)",
                              format: format.name, underlying: [error])
        }
        var fields = HTTPFields()
        fields[.contentType] = contentType.description
        fields[.vary] = "Accept"
        return Reply(contentType: contentType, body: body, formatName: format.name, headerFields: fields)
    }
}
