public import HTTPTypes
public import Parley

/// Parley's server side, independent of any framework: the one entry point the Hummingbird and
/// Vapor integrations and the gateway call, so they answer alike.
///
/// Replies are negotiated from the request's `Accept` (and, as ``ReplyOptions`` offer them,
/// `Accept-Encoding`, `Accept-Language` and `Accept-Charset`); request bodies are decoded by their
/// `Content-Type` after their `Content-Encoding` is undone (``ContentCodingStep``, within
/// `maxDecompressedBytes`); every `ParleyError` becomes a problem answer (RFC 9457) with the
/// fields its status calls for. One rule for malformed fields: a `Content-Type` that does not
/// parse, or an `Accept` none of whose elements is a media range, is 400.
///
/// ```swift
/// let server = ParleyServer(registry: .linked, contentCodings: .zlib)
/// let reply = try server.reply(with: value, for: request)          // negotiated by Accept
/// let item = try server.decode(Item.self, from: body, of: request)  // by Content-Type
/// ```
public struct ParleyServer: Sendable {
    /// The formats request bodies decode with and replies encode with.
    public var registry: Registry
    /// The content codings a request body may carry (`ContentCodings.zlib` from
    /// `ParleyCompression` for gzip and deflate). Default none.
    public var contentCodings: ContentCodings
    /// The most bytes of a request body a framework integration reads; more is 413.
    /// Default `DecodingLimits.maxBodyBytes` of `DecodingLimits.standard` (64 MiB).
    public var maxRequestBodyBytes: Int
    /// The most bytes a request's `Content-Encoding` may decompress to (the matched format's body
    /// limit bounds it too); more is 413. Default 256 MiB.
    public var maxDecompressedBytes: Int
    /// Turns `Encodable` replies into values.
    public var valueEncoder: ValueEncoder
    /// Decodes `Decodable` request bodies.
    public var valueDecoder: ValueDecoder

    /// Creates a server side.
    public init(registry: Registry, contentCodings: ContentCodings = .none,
                maxRequestBodyBytes: Int = DecodingLimits.standard.maxBodyBytes,
                maxDecompressedBytes: Int = DecodingLimits.standard.maxDecompressedBytes,
                valueEncoder: ValueEncoder = ValueEncoder(), valueDecoder: ValueDecoder = ValueDecoder()) {
        self.registry = registry
        self.contentCodings = contentCodings
        self.maxRequestBodyBytes = maxRequestBodyBytes
        self.maxDecompressedBytes = maxDecompressedBytes
        self.valueEncoder = valueEncoder
        self.valueDecoder = valueDecoder
    }

    // MARK: Request bodies

    /// Decodes a request body to a value by its `Content-Type`, its `Content-Encoding` undone first.
    /// An empty body without `Content-Type` is `Value.null`.
    ///
    /// ```swift
    /// let input = try server.decodeValue(body, of: request)
    /// ```
    ///
    /// - Throws: `ParleyError`: 400 (`ParleyError.Code.invalidRequest`) for a malformed
    ///   `Content-Type`; what `undoContentCoding(of:body:)` throws (415, 413, 400); 415
    ///   (`ParleyError.Code.unsupportedMediaType`, see `unsupportedMediaTypeFields`) for a
    ///   missing or undecodable type; the format's failure (400, or 413 for a limit).
    public func decodeValue(_ body: [UInt8], of request: HTTPRequest) throws(ParleyError) -> Value {
        try checkContentType(of: request)
        let (_, body) = try undoContentCoding(of: request, body: body)
        guard let received = request.headerFields.combinedValue(of: .contentType) else {
            if body.isEmpty { return .null }
            throw ParleyError(.unsupportedMediaType, "request body has no Content-Type",
                              body: body, acceptableTypes: registry.decodableMediaTypes)
        }
        let type = try parsedContentType(received)
        guard let match = registry.decoder(for: type) else {
            var error = ParleyError.unsupportedMediaType(received, acceptable: registry.decodableMediaTypes)
            error.body = body
            throw error
        }
        do {
            return try match.decode(body, contentType: type)
        } catch {
            throw error.with(response: nil, body: body)
        }
    }

    /// Decodes a request body into `T` by its `Content-Type`, through the format's own `Decodable`
    /// path (JSON decodes without building a value tree), its `Content-Encoding` undone first. An
    /// empty body without `Content-Type` decodes `T` from null.
    ///
    /// - Throws: `ParleyError` as ``decodeValue(_:of:)`` does; a body of plain text or raw bytes
    ///   is 415 (a `Decodable` type is never read from them); a body that does not fit `T` is
    ///   `ParleyError.Code.decodingFailed` (400) naming the coding path.
    public func decode<T: Decodable>(_ type: T.Type, from body: [UInt8],
                                     of request: HTTPRequest) throws(ParleyError) -> T {
        guard let received = request.headerFields.combinedValue(of: .contentType) else {
            if !body.isEmpty || request.headerFields.contains(.contentEncoding) {
                _ = try decodeValue(body, of: request)   // 415, or the coding's failure
            }
            do { return try valueDecoder.decode(T.self, from: .null) } catch {
                throw ParleyError(.decodingFailed, "cannot decode \(T.self) from an empty body: \(error)",
                                  underlying: [error])
            }
        }
        let contentType = try parsedContentType(received)
        let (_, body) = try undoContentCoding(of: request, body: body)
        guard let match = registry.decoder(for: contentType),
              !(match.format is TextFormat || match.format is RawFormat) else {
            var error = ParleyError.unsupportedMediaType(received, acceptable: structuredDecodableTypes)
            error.body = body
            throw error
        }
        return try match.decode(T.self, from: body, contentType: contentType, decoder: valueDecoder)
    }

    /// Undoes a request's `Content-Encoding` with `contentCodings` (``ContentCodingStep``, the
    /// response pipeline's step 1), within `maxDecompressedBytes` and the matched format's body
    /// limit; the request comes back without `Content-Encoding` and `Content-Length` when a coding
    /// was undone, as it is when it has none.
    ///
    /// - Throws: `ParleyError`: `ParleyError.Code.unsupportedContentEncoding` (415),
    ///   `ParleyError.Code.limitExceeded` (413), `ParleyError.Code.decodingFailed` (400, corrupt),
    ///   carrying the body as received.
    public func undoContentCoding(of request: HTTPRequest,
                                  body: [UInt8]) throws(ParleyError) -> (HTTPRequest, [UInt8]) {
        guard request.headerFields.contains(.contentEncoding) else { return (request, body) }
        do {
            let undone = try ContentCodingStep(contentCodings, maxDecompressedBytes: maxDecompressedBytes)
                .undo(body, fields: request.headerFields, registry: registry)
            var request = request
            request.headerFields = undone.headerFields
            return (request, undone.body)
        } catch {
            throw error.with(response: nil, body: body)
        }
    }

    /// The fields of a 415 answer: `Accept` listing the decodable types, and `Accept-Encoding` the
    /// codings a request body may use (`contentCodings`), `identity` when there are none
    /// (RFC 9110 §15.5.16).
    public var unsupportedMediaTypeFields: HTTPFields {
        var fields = HTTPFields()
        fields[.accept] = registry.acceptHeaderValue()
        var tokens: [String] = []
        for token in contentCodings.decoders.flatMap(\.tokens) where !tokens.contains(token) { tokens.append(token) }
        fields[.acceptEncoding] = tokens.isEmpty ? "identity" : tokens.joined(separator: ", ")
        return fields
    }

    /// Throws 400 when the request's `Content-Type` is present but malformed.
    ///
    /// - Throws: `ParleyError.Code.invalidRequest` naming the field and where it breaks.
    public func checkContentType(of request: HTTPRequest) throws(ParleyError) {
        if let received = request.headerFields.combinedValue(of: .contentType) { _ = try parsedContentType(received) }
    }

    // MARK: Problems

    /// The answer to a failure: a problem document (RFC 9457) in a format the request accepts
    /// (JSON when it accepts none, never refused), with the error's status and the fields it
    /// calls for: `Accept` and `Accept-Encoding` on a 415
    /// (`unsupportedMediaTypeFields`), `Vary: Accept` always. 406 and
    /// 415 problems list the types in an `acceptable` member too.
    ///
    /// - Parameters:
    ///   - error: The failure.
    ///   - request: The request it answers.
    /// - Returns: The response head and body.
    public func problemAnswer(for error: ParleyError,
                              to request: HTTPRequest) -> (response: HTTPResponse, body: [UInt8]) {
        problemAnswer(for: error, to: request, accepting: AcceptField(request.headerFields))
    }

    /// The answer to a failure as ``problemAnswer(for:to:)`` gives it, with the request's
    /// `Accept` fields given scanned (the `AcceptField` its reply was negotiated with).
    public func problemAnswer(for error: ParleyError, to request: HTTPRequest,
                              accepting accept: AcceptField) -> (response: HTTPResponse, body: [UInt8]) {
        let status = error.impliedStatus
        var extensions: Value.Object = [:]
        if !error.acceptableTypes.isEmpty, status == .notAcceptable || status == .unsupportedMediaType {
            extensions["acceptable"] = .array(error.acceptableTypes.map { .string($0.description) })
        }
        let extra = status == .unsupportedMediaType ? unsupportedMediaTypeFields : HTTPFields()
        return problemAnswer(ProblemDetails(status, detail: error.message, extensions: extensions),
                             status: status, fields: extra, to: request, accepting: accept)
    }

    /// The answer carrying `problem` with `status` and `fields`, negotiated as
    /// ``problemAnswer(for:to:)`` does; a plain-text body when the registry encodes nothing.
    public func problemAnswer(_ problem: ProblemDetails, status: HTTPResponse.Status, fields: HTTPFields = [:],
                              to request: HTTPRequest) -> (response: HTTPResponse, body: [UInt8]) {
        problemAnswer(problem, status: status, fields: fields, to: request,
                      accepting: AcceptField(request.headerFields))
    }

    /// The answer carrying `problem` as ``problemAnswer(_:status:fields:to:)`` gives it, with the
    /// request's `Accept` fields given scanned.
    public func problemAnswer(_ problem: ProblemDetails, status: HTTPResponse.Status, fields: HTTPFields = [:],
                              to request: HTTPRequest,
                              accepting accept: AcceptField) -> (response: HTTPResponse, body: [UInt8]) {
        var head: HTTPResponse
        let body: [UInt8]
        do {
            let reply = try reply(with: problem, for: request, accepting: accept)
            head = reply.response(status: status)
            body = reply.body
        } catch {
            head = HTTPResponse(status: status,
                                headerFields: [.contentType: "text/plain; charset=utf-8", .vary: "Accept"])
            body = Array((problem.detail ?? problem.title ?? "\(status.code)").utf8)
        }
        for field in fields { head.headerFields.append(field) }
        return (head, body)
    }

    // MARK: Helpers

    /// Whether an `Accept` value has elements and none of them is a media range (RFC 9110
    /// §12.5.1), so it cannot mean anything. An empty value, or one with a single valid element,
    /// is not malformed (the negotiator skips invalid elements).
    public static func isMalformedAccept(_ accept: String) -> Bool {
        AcceptField(accept).isMalformed
    }

    private func parsedContentType(_ received: String) throws(ParleyError) -> MediaType {
        do { return try MediaType(parsing: received) } catch {
            throw ParleyError(.invalidRequest, "malformed Content-Type '\(received)': \(error)",
                              receivedContentType: received)
        }
    }

    private var structuredDecodableTypes: [MediaType] {
        registry.formats.filter { !($0 is TextFormat || $0 is RawFormat) }.flatMap(\.decodableMediaTypes)
    }
}
