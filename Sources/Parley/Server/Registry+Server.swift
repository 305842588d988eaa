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
        var contentType = choice.mediaType
        if choice.format.isTextual && contentType.charset == nil {
            contentType = contentType.settingParameter("charset", to: "utf-8")
        }
        let body: [UInt8]
        do {
            body = try choice.format.encode(value, context: EncodingContext(mediaType: contentType))
        } catch {
            throw ParleyError(.encodingFailed, "\(choice.format.name) cannot encode the reply: \(error)",
                              format: choice.format.name, underlying: [error])
        }
        var fields = HTTPFields()
        fields[.contentType] = contentType.description
        fields[.vary] = "Accept"
        return Reply(contentType: contentType, body: body, formatName: choice.format.name, headerFields: fields)
    }

    /// Encodes `value` for `request`, reading its `Accept` fields.
    ///
    /// - Throws: ``ParleyError`` as ``reply(with:accepting:)`` does.
    public func reply(with value: Value, for request: HTTPRequest) throws(ParleyError) -> Reply {
        let accept = request.headerFields[values: .accept]
        return try reply(with: value, accepting: accept.isEmpty ? nil : accept.joined(separator: ", "))
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
}
