public import HTTPTypes
public import Parley

// What `Registry` offered servers before ParleyServer became the one server-side entry point.
// Each forwards to ParleyServer, whose rule for a malformed `Accept` (400) and `Content-Type`
// (400) now applies.
extension Registry {
    /// Encodes `value` in the format `accept` prefers.
    @available(*, deprecated, message: "use ParleyServer(registry:).reply(with:accepting:)")
    public func reply(with value: Value, accepting accept: String?) throws(ParleyError) -> Reply {
        try ParleyServer(registry: self).reply(with: value, accepting: accept)
    }

    /// Encodes `value` for `request`, negotiating as `options` offer.
    @available(*, deprecated, message: "use ParleyServer(registry:).reply(with:for:options:)")
    public func reply(with value: Value, for request: HTTPRequest,
                      options: ReplyOptions = ReplyOptions()) throws(ParleyError) -> Reply {
        try ParleyServer(registry: self).reply(with: value, for: request, options: options)
    }

    /// Encodes the value `localizing` builds in the negotiated language.
    @available(*, deprecated, message: "use ParleyServer(registry:).reply(for:options:localizing:)")
    public func reply(for request: HTTPRequest, options: ReplyOptions = ReplyOptions(),
                      localizing: (_ language: String?) -> Value) throws(ParleyError) -> Reply {
        try ParleyServer(registry: self).reply(for: request, options: options, localizing: localizing)
    }

    /// Encodes a problem in the format `accept` prefers.
    @available(*, deprecated, message: "use ParleyServer(registry:).reply(with:accepting:)")
    public func reply(with problem: ProblemDetails, accepting accept: String?) throws(ParleyError) -> Reply {
        try ParleyServer(registry: self).reply(with: problem, accepting: accept)
    }

    /// Encodes a problem for `request`.
    @available(*, deprecated, message: "use ParleyServer(registry:).reply(with:for:options:)")
    public func reply(with problem: ProblemDetails, for request: HTTPRequest,
                      options: ReplyOptions = ReplyOptions()) throws(ParleyError) -> Reply {
        try ParleyServer(registry: self).reply(with: problem, for: request, options: options)
    }

    /// Encodes an `Encodable` reply in the format `accept` prefers.
    @available(*, deprecated, message: "use ParleyServer(registry:valueEncoder:).reply(encoding:accepting:)")
    public func reply<T: Encodable>(encoding value: T, accepting accept: String?,
                                    encoder: ValueEncoder = ValueEncoder()) throws -> Reply {
        try ParleyServer(registry: self, valueEncoder: encoder).reply(encoding: value, accepting: accept)
    }

    /// Decodes a request body by its `Content-Type`, after undoing its `Content-Encoding`.
    @available(*, deprecated,
               message: "use ParleyServer(registry:contentCodings:maxDecompressedBytes:).decodeValue(_:of:)")
    public func decodeRequestBody(_ body: [UInt8], of request: HTTPRequest, contentCodings: ContentCodings = .none,
                                  maxDecompressedBytes: Int = DecodingLimits.standard.maxDecompressedBytes)
        throws(ParleyError) -> Value {
        try ParleyServer(registry: self, contentCodings: contentCodings, maxDecompressedBytes: maxDecompressedBytes)
            .decodeValue(body, of: request)
    }

    /// Undoes a request body's `Content-Encoding`.
    @available(*, deprecated, message: "use ParleyServer.undoContentCoding(of:body:) or ContentCodingStep")
    public func undoContentCoding(of request: HTTPRequest, body: [UInt8], contentCodings: ContentCodings,
                                  maxDecompressedBytes: Int = DecodingLimits.standard.maxDecompressedBytes)
        throws(ParleyError) -> (HTTPRequest, [UInt8]) {
        try ParleyServer(registry: self, contentCodings: contentCodings, maxDecompressedBytes: maxDecompressedBytes)
            .undoContentCoding(of: request, body: body)
    }

    /// The fields of a 415 answer: `Accept` listing the decodable types.
    @available(*, deprecated, message: "use ParleyServer(registry:contentCodings:).unsupportedMediaTypeFields")
    public var unsupportedMediaTypeFields: HTTPFields {
        var fields = HTTPFields()
        fields[.accept] = acceptHeaderValue()
        return fields
    }

    /// The fields of a 415 answer for a server that undoes `contentCodings`.
    @available(*, deprecated, message: "use ParleyServer(registry:contentCodings:).unsupportedMediaTypeFields")
    public func unsupportedMediaTypeFields(contentCodings: ContentCodings) -> HTTPFields {
        ParleyServer(registry: self, contentCodings: contentCodings).unsupportedMediaTypeFields
    }
}

extension ResponsePipeline {
    /// Undoes the response's `Content-Encoding` (step 1 alone).
    @available(*, deprecated, message: "use ContentCodingStep.undo(_:fields:maximumBytes:) (contentCodingStep)")
    public func undoContentCoding(_ response: HTTPResponse,
                                  body: [UInt8]) throws(ParleyError) -> (HTTPResponse, [UInt8]) {
        var response = response
        do {
            let undone = try contentCodingStep.undo(body, fields: response.headerFields, registry: registry)
            response.headerFields = undone.headerFields
            return (response, undone.body)
        } catch {
            throw error.with(response: response, body: body)
        }
    }
}
