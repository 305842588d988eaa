public import HTTPTypes
public import Parley

extension ParleyServer {
    /// Encodes `value` in the format the request's `Accept` prefers (RFC 9110 §12.5.1).
    ///
    /// The reply's `Content-Type` carries `charset=utf-8` when the format is textual, and
    /// `Vary: Accept` is always set because the representation depends on that field.
    ///
    /// ```swift
    /// let reply = try server.reply(with: ["id": 7], accepting: request.headerFields[.accept])
    /// // reply.contentType == application/json; reply.headerFields[.vary] == "Accept"
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to send.
    ///   - accept: The request's `Accept` field value (all fields joined by `, `), or `nil`.
    /// - Throws: `ParleyError` with `ParleyError.Code.notAcceptable` (answer 406, listing
    ///   the types whose format can encode `value`), `ParleyError.Code.invalidRequest` (answer 400) when no element
    ///   of `Accept` is a media range, or `ParleyError.Code.encodingFailed`.
    public func reply(with value: Value, accepting accept: String?) throws(ParleyError) -> Reply {
        try reply(with: value, accepting: AcceptField(accept))
    }

    /// Encodes `value` in the format a scanned `Accept` field prefers, as
    /// ``reply(with:accepting:)-(Value,String?)`` does, reading no text: scan the field once per
    /// request and pass the same `AcceptField` to every reply and problem of that request.
    ///
    /// - Throws: `ParleyError` as ``reply(with:accepting:)-(Value,String?)`` does.
    public func reply(with value: Value, accepting accept: AcceptField) throws(ParleyError) -> Reply {
        guard let choice = registry.encoder(for: accept) else { throw notAcceptable(accept, encoding: value) }
        return try encodeReply(value, choice: choice, accepting: accept).reply
    }

    /// Encodes `value` for `request`, negotiating the media type from its `Accept` fields and,
    /// as `options` offer them, the content coding, language and charset from `Accept-Encoding`,
    /// `Accept-Language` and `Accept-Charset` (RFC 9110 §12.5).
    ///
    /// ```swift
    /// let options = ReplyOptions(contentCodings: .zlib, languages: ["en", "de"], charsets: ["iso-8859-1"])
    /// let reply = try server.reply(with: value, for: request, options: options)
    /// // Content-Type: text/csv; charset=iso-8859-1, Content-Encoding: gzip, Content-Language: de,
    /// // Vary: Accept, Accept-Encoding, Accept-Language, Accept-Charset
    /// ```
    ///
    /// In order:
    /// 1. **Type**: as `reply(with:accepting:)`; none acceptable throws 406, a
    ///    malformed `Accept` 400.
    /// 2. **Language** (when ``ReplyOptions/languages`` is not empty): `LanguageNegotiator`;
    ///    the reply carries `Content-Language`. `value` is the same in every language: to build
    ///    it in the negotiated one, use ``reply(for:options:localizing:)``.
    /// 3. **Charset** (a textual format that `Format.allowsCharsetTranscoding`, with
    ///    ``ReplyOptions/charsets`` not empty): `CharsetNegotiator` over UTF-8 and the offered
    ///    charsets; the encoded UTF-8 is transcoded and `Content-Type` labelled with the
    ///    `charset`. When `Accept-Charset` accepts none of them, the first one it does not
    ///    exclude with `q=0` is sent (`CharsetNegotiator.unexcludedCharsetIndex(forAcceptCharset:)`:
    ///    `utf-8;q=0` with ISO 8859-1 offered gives ISO 8859-1), as RFC 9110 §12.5.2 lets a
    ///    server disregard the field. When the text holds a character the chosen charset cannot
    ///    (or the result is over 4 bytes per UTF-8 byte) the reply is UTF-8, unless the field
    ///    excludes UTF-8: then it is refused with 406.
    /// 4. **Content coding** (a `Format.isCompressible` format, with
    ///    ``ReplyOptions/contentCodings`` holding encoders): `EncodingNegotiator`; a body larger
    ///    than ``ReplyOptions/compressionThreshold`` is compressed with the preferred coding, a
    ///    smaller one only when `identity` is not acceptable. When neither `identity` nor any
    ///    offered coding is acceptable (`Accept-Encoding: br;q=0, identity;q=0`) the reply is
    ///    refused with 406 too. A body is never coded twice.
    /// 5. **`Vary`** lists `Accept` and every field a step above read.
    ///
    /// - Parameters:
    ///   - value: The value to send.
    ///   - request: The request; its `Accept`, `Accept-Encoding`, `Accept-Language` and
    ///     `Accept-Charset` fields are read.
    ///   - options: What to negotiate besides the type. The default negotiates the type alone.
    /// - Throws: `ParleyError` with `ParleyError.Code.notAcceptable` (answer 406),
    ///   `ParleyError.Code.invalidRequest` (answer 400, a malformed `Accept`) or
    ///   `ParleyError.Code.encodingFailed`.
    public func reply(with value: Value, for request: HTTPRequest,
                      options: ReplyOptions = ReplyOptions()) throws(ParleyError) -> Reply {
        try reply(for: request, options: options) { _ in value }
    }

    /// Encodes the value `localizing` builds in the negotiated language, for `request`, as
    /// ``reply(with:for:options:)-(Value,_,_)`` does.
    ///
    /// ```swift
    /// let reply = try server.reply(for: request, options: ReplyOptions(languages: ["en", "de"])) { language in
    ///     ["greeting": language == "de" ? "Hallo" : "Hello"]
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request whose `Accept…` fields are read.
    ///   - options: What to negotiate besides the type.
    ///   - localizing: Builds the value in a language of ``ReplyOptions/languages`` (the
    ///     negotiated one or the default), or `nil` when none are offered. Called once: after
    ///     the media type was found acceptable, or, when none is, to list in the 406 the types
    ///     whose format can encode the value.
    /// - Throws: `ParleyError` as ``reply(with:for:options:)-(Value,_,_)`` does.
    public func reply(for request: HTTPRequest, options: ReplyOptions = ReplyOptions(),
                      localizing: (_ language: String?) -> Value) throws(ParleyError) -> Reply {
        let accept = AcceptField(request.headerFields)
        guard let choice = registry.encoder(for: accept) else {
            throw notAcceptable(accept, encoding: localizing(Self.negotiateLanguage(request.headerFields, options)))
        }
        return try reply(as: choice, for: request, accepting: accept, options: options, localizing: localizing)
    }

    /// Encodes `value` for `request` as ``reply(with:for:options:)-(Value,_,_)`` does, with its
    /// `Accept` fields given scanned: no step reads them again.
    ///
    /// - Throws: `ParleyError` as ``reply(with:for:options:)-(Value,_,_)`` does.
    public func reply(with value: Value, for request: HTTPRequest, accepting accept: AcceptField,
                      options: ReplyOptions = ReplyOptions()) throws(ParleyError) -> Reply {
        guard let choice = registry.encoder(for: accept) else { throw notAcceptable(accept, encoding: value) }
        return try reply(with: value, as: choice, for: request, accepting: accept, options: options)
    }

    /// Encodes `value` for `request` as `choice`, the encoder `Registry.encoder(for:)` chose for
    /// `accept` already, so the type is chosen once; the rest as
    /// ``reply(with:for:options:)-(Value,_,_)``: when `choice`'s format cannot hold `value`, the
    /// type `accept` prefers among those that can, then language, charset, coding and `Vary`.
    ///
    /// - Throws: `ParleyError` as ``reply(with:for:options:)-(Value,_,_)`` does.
    public func reply(with value: Value, as choice: Registry.EncoderChoice, for request: HTTPRequest,
                      accepting accept: AcceptField,
                      options: ReplyOptions = ReplyOptions()) throws(ParleyError) -> Reply {
        try reply(as: choice, for: request, accepting: accept, options: options) { _ in value }
    }

    /// Steps 2 to 5 of ``reply(with:for:options:)-(Value,_,_)`` after the type was chosen.
    private func reply(as choice: Registry.EncoderChoice, for request: HTTPRequest, accepting accept: AcceptField,
                       options: ReplyOptions, localizing: (_ language: String?) -> Value) throws(ParleyError) -> Reply {
        let language = Self.negotiateLanguage(request.headerFields, options)
        let (reply, format) = try encodeReply(localizing(language), choice: choice, accepting: accept)
        return try negotiateRepresentation(reply, format: format, language: language,
                                           request: request.headerFields, options: options, refusing: true)
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
    /// let reply = try server.reply(with: problem, accepting: request.headerFields[.accept])
    /// let head = reply.response(status: .notFound)   // Content-Type: application/problem+json; charset=utf-8
    /// ```
    ///
    /// - Parameters:
    ///   - problem: The problem to send; its ``ProblemDetails/status`` is not applied to the
    ///     reply, pass it to ``Reply/response(status:)``.
    ///   - accept: The request's `Accept` field value (all fields joined by `, `), or `nil`.
    /// - Throws: `ParleyError` with `ParleyError.Code.encodingFailed` (an extension member
    ///   the format cannot write), or `ParleyError.Code.notAcceptable` when the registry
    ///   encodes nothing.
    public func reply(with problem: ProblemDetails, accepting accept: String?) throws(ParleyError) -> Reply {
        try reply(with: problem, accepting: AcceptField(accept))
    }

    /// Encodes a problem in the format a scanned `Accept` field prefers, as
    /// ``reply(with:accepting:)-(ProblemDetails,String?)`` does, reading no text.
    ///
    /// - Throws: `ParleyError` as ``reply(with:accepting:)-(ProblemDetails,String?)`` does.
    public func reply(with problem: ProblemDetails, accepting accept: AcceptField) throws(ParleyError) -> Reply {
        let offers = problemOffers()
        guard !offers.isEmpty else {
            throw ParleyError.notAcceptable(accept.fieldValue, available: registry.encodableMediaTypes)
        }
        let chosen = offers[AcceptNegotiator(offers: offers.map(\.offer)).preferredOfferIndex(for: accept) ?? 0]
        return try encodeReply(chosen.isXML ? problem.xmlValue : problem.value,
                               format: registry.formats[chosen.format], as: chosen.sent)
    }

    /// Encodes a problem for `request`, negotiating its type from the `Accept` fields and, as
    /// `options` offer them, its coding, language and charset, as
    /// ``reply(with:for:options:)-(Value,_,_)`` does, but never refused: when no coding is
    /// acceptable the problem is sent without one.
    ///
    /// - Throws: `ParleyError` as ``reply(with:accepting:)-(ProblemDetails,String?)`` does.
    public func reply(with problem: ProblemDetails, for request: HTTPRequest,
                      options: ReplyOptions = ReplyOptions()) throws(ParleyError) -> Reply {
        try reply(with: problem, for: request, accepting: AcceptField(request.headerFields), options: options)
    }

    /// Encodes a problem for `request` as ``reply(with:for:options:)-(ProblemDetails,_,_)`` does,
    /// with its `Accept` fields given scanned.
    ///
    /// - Throws: `ParleyError` as ``reply(with:accepting:)-(ProblemDetails,String?)`` does.
    public func reply(with problem: ProblemDetails, for request: HTTPRequest, accepting accept: AcceptField,
                      options: ReplyOptions = ReplyOptions()) throws(ParleyError) -> Reply {
        let reply = try reply(with: problem, accepting: accept)
        guard let format = registry.formats.first(where: { $0.name == reply.formatName }) else { return reply }
        let language = Self.negotiateLanguage(request.headerFields, options)
        return try negotiateRepresentation(reply, format: format, language: language,
                                           request: request.headerFields, options: options, refusing: false)
    }

    /// Encodes an `Encodable` with `valueEncoder`, then as `reply(with:for:options:)`.
    ///
    /// - Throws: `ParleyError` as `reply(with:for:options:)` does, or
    ///   `ParleyError.Code.encodingFailed`.
    public func reply<T: Encodable>(encoding value: T, for request: HTTPRequest,
                                    options: ReplyOptions = ReplyOptions()) throws(ParleyError) -> Reply {
        try reply(with: encodedValue(value), for: request, options: options)
    }

    /// Encodes an `Encodable` with `valueEncoder`, then as ``reply(with:for:accepting:options:)-(Value,_,_,_)``.
    ///
    /// - Throws: `ParleyError` as `reply(with:for:options:)` does, or
    ///   `ParleyError.Code.encodingFailed`.
    public func reply<T: Encodable>(encoding value: T, for request: HTTPRequest, accepting accept: AcceptField,
                                    options: ReplyOptions = ReplyOptions()) throws(ParleyError) -> Reply {
        try reply(with: encodedValue(value), for: request, accepting: accept, options: options)
    }

    /// Encodes an `Encodable` with `valueEncoder`, then as `reply(with:accepting:)`.
    ///
    /// - Throws: `ParleyError` as `reply(with:accepting:)` does, or
    ///   `ParleyError.Code.encodingFailed`.
    public func reply<T: Encodable>(encoding value: T, accepting accept: String?) throws(ParleyError) -> Reply {
        try reply(with: encodedValue(value), accepting: AcceptField(accept))
    }

    /// Encodes an `Encodable` with `valueEncoder`, then as ``reply(with:accepting:)-(Value,AcceptField)``.
    ///
    /// - Throws: `ParleyError` as `reply(with:accepting:)` does, or
    ///   `ParleyError.Code.encodingFailed`.
    public func reply<T: Encodable>(encoding value: T, accepting accept: AcceptField) throws(ParleyError) -> Reply {
        try reply(with: encodedValue(value), accepting: accept)
    }

    private func encodedValue<T: Encodable>(_ value: T) throws(ParleyError) -> Value {
        do { return try valueEncoder.encode(value) } catch {
            throw ParleyError(.encodingFailed, "cannot encode \(T.self): \(error)", underlying: [error])
        }
    }

    /// Nothing acceptable: 400 when no element of `accept` is a media range (DESIGN: a malformed
    /// `Accept` is a client error), 406 otherwise, listing only the types whose format can encode
    /// `value` (an object is never offered as `text/plain`).
    private func notAcceptable(_ accept: AcceptField, encoding value: @autoclosure () -> Value) -> ParleyError {
        if accept.isMalformed {
            return ParleyError(.invalidRequest,
                               "malformed Accept '\(accept.fieldValue ?? "")': no element is a media range")
        }
        return ParleyError.notAcceptable(accept.fieldValue, available: offersEncoding(value()).map(\.mediaType))
    }

    /// A problem reply's candidates, most preferred first: `application/problem+json` and
    /// `application/problem+xml` when a format encodes `application/json` or `application/xml`,
    /// then every encodable type; a type of those two formats is sent as its problem type.
    private func problemOffers() -> [(offer: MediaType, format: Int, sent: MediaType, isXML: Bool)] {
        let offered = registry.encodableMediaTypes
        let jsonFormat = offered.firstIndex { $0.essence == "application/json" }.map { registry.offerFormats[$0] }
        let xmlFormat = offered.firstIndex { $0.essence == "application/xml" }.map { registry.offerFormats[$0] }
        var offers: [(offer: MediaType, format: Int, sent: MediaType, isXML: Bool)] = []
        if let jsonFormat { offers.append((Self.problemJSON, jsonFormat, Self.problemJSON, false)) }
        if let xmlFormat { offers.append((Self.problemXML, xmlFormat, Self.problemXML, true)) }
        for (offer, format) in zip(offered, registry.offerFormats) {
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

    /// A request field's values joined with `, `, or `nil` when it has none.
    static func fieldValue(_ fields: HTTPFields, _ name: HTTPField.Name) -> String? {
        let values = fields[values: name]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    private static let acceptCharset = HTTPField.Name("Accept-Charset")!

    /// The language of ``ReplyOptions/languages`` the request's `Accept-Language` prefers, or the
    /// default; `nil` when none are offered.
    private static func negotiateLanguage(_ fields: HTTPFields, _ options: ReplyOptions) -> String? {
        guard !options.languages.isEmpty else { return nil }
        return LanguageNegotiator(languages: options.languages, defaultLanguage: options.defaultLanguage)
            .language(forAcceptLanguage: fieldValue(fields, .acceptLanguage))
    }

    /// Steps 2 to 5 of ``reply(with:for:options:)-(Value,_,_)`` on an encoded reply: the language's
    /// `Content-Language`, the charset, the content coding and `Vary`.
    private func negotiateRepresentation(_ reply: Reply, format: any Format, language: String?,
                                         request fields: HTTPFields, options: ReplyOptions,
                                         refusing: Bool) throws(ParleyError) -> Reply {
        var reply = reply
        // In a fixed order: Accept, Accept-Encoding, Accept-Language, Accept-Charset.
        var vary = "Accept"   // one string, not an array joined: the common "Accept" needs no allocation
        let negotiatesCharset = format.isTextual && format.allowsCharsetTranscoding && !options.charsets.isEmpty
        if format.isCompressible && !options.contentCodings.encoders.isEmpty { vary += ", Accept-Encoding" }
        if let language {
            reply.language = language
            reply.headerFields[.contentLanguage] = language
            vary += ", Accept-Language"
        }
        if negotiatesCharset {
            vary += ", Accept-Charset"
            let offered = options.offeredCharsets
            let acceptCharset = Self.fieldValue(fields, Self.acceptCharset)
            let negotiator = CharsetNegotiator(charsets: offered)
            let index = negotiator.unexcludedCharsetIndex(forAcceptCharset: acceptCharset)
            var transcodedTo: String?
            if let index, Charset(name: offered[index]) != .utf8,
               let transcoded = try? options.charsetConverter.bytes(
                   fromUTF8: reply.body, charset: offered[index], maximumBytes: reply.body.count * 4 + 16) {
                reply.body = transcoded
                reply.contentType = reply.contentType.settingParameter("charset", to: offered[index].lowercased())
                reply.headerFields[.contentType] = reply.contentType.description
                transcodedTo = offered[index]
            }
            if transcodedTo == nil, refusing,
               CharsetNegotiator(charsets: ["utf-8"]).unexcludedCharsetIndex(forAcceptCharset: acceptCharset) == nil {
                let others = offered.dropFirst().joined(separator: ", ")
                throw ParleyError(.notAcceptable,
                                  "nothing acceptable for Accept-Charset '\(acceptCharset ?? "")': it excludes UTF-8"
                                      + " and the body has no form in \(others)",
                                  acceptableTypes: [reply.contentType])
            }
        }
        // Never a second coding over one applied already.
        if format.isCompressible && !options.contentCodings.encoders.isEmpty
            && !reply.headerFields.contains(.contentEncoding) {
            let negotiator = EncodingNegotiator(options.contentCodings)
            let acceptEncoding = Self.fieldValue(fields, .acceptEncoding)
            let choice = negotiator.choice(forAcceptEncoding: acceptEncoding,
                                           preferringIdentity: reply.body.count <= options.compressionThreshold)
            switch choice {
            case .coding(let index):
                if let encoder = options.contentCodings.encoder(for: negotiator.codings[index]) {
                    reply.body = encoder.encode(reply.body)
                    reply.contentEncoding = encoder.token
                    reply.headerFields[.contentEncoding] = encoder.token
                }
            case .identity:
                break
            case nil:
                if refusing {
                    let available = (negotiator.codings + ["identity"]).joined(separator: ", ")
                    throw ParleyError(.notAcceptable,
                                      "nothing acceptable for Accept-Encoding '\(acceptEncoding ?? "")';"
                                          + " available: \(available)",
                                      acceptableTypes: [reply.contentType])
                }
            }
        }
        reply.headerFields[.vary] = vary
        return reply
    }

    private static let problemJSON = MediaType(lowercasedType: "application", subtype: "problem+json", parameters: [])
    private static let problemXML = MediaType(lowercasedType: "application", subtype: "problem+xml", parameters: [])

    /// The type a reply that `format` encodes as `mediaType` is sent as: `mediaType`, with
    /// `charset=utf-8` when the format is textual and the type names no charset.
    public static func sentType(of format: any Format, as mediaType: MediaType) -> MediaType {
        format.isTextual && mediaType.charset == nil ? mediaType.settingParameter("charset", to: "utf-8") : mediaType
    }

    /// Encodes a reply body with `format` as `mediaType` (sent as ``sentType(of:as:)``), and its
    /// `Content-Type` and `Vary: Accept` fields.
    func encodeReply(_ value: Value, format: any Format, as mediaType: MediaType) throws(ParleyError) -> Reply {
        let contentType = Self.sentType(of: format, as: mediaType)
        let body: [UInt8]
        do {
            body = try format.encode(value, context: EncodingContext(mediaType: contentType))
        } catch {
            throw ParleyError(.encodingFailed, "\(format.name) cannot encode the reply: \(error)",
                              format: format.name, underlying: [error])
        }
        var fields = HTTPFields()
        fields.reserveCapacity(2)
        fields[.contentType] = contentType.description
        fields[.vary] = "Accept"
        return Reply(contentType: contentType, body: body, formatName: format.name, headerFields: fields)
    }
}
