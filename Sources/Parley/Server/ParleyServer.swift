public import HTTPTypes

/// Parley's server side, independent of any framework: what the Hummingbird and Vapor
/// integrations both run, so they answer alike.
///
/// It adds to the core's ``Registry/reply(with:for:options:)-(Value,_,_)``, ``Registry/decodeRequestBody(_:of:contentCodings:maxDecompressedBytes:)``
/// and ``Registry/reply(with:for:options:)-(ProblemDetails,_,_)`` the pieces a server needs around them:
/// a request's `Content-Encoding` undone (with the response pipeline's
/// ``ResponsePipeline/undoContentCoding(_:body:)``, within ``maxDecompressedBytes``), a malformed
/// `Content-Type` or `Accept` answered 400 rather than 415 or 406, `Decodable` bodies decoded by the
/// format directly, and every ``ParleyError`` turned into a problem answer (RFC 9457) with the
/// fields its status calls for.
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
    /// Default ``DecodingLimits/maxBodyBytes`` of ``DecodingLimits/standard`` (64 MiB).
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

    // MARK: Replies

    /// Encodes `value` in the format the request's `Accept` prefers, with `Content-Type` and
    /// `Vary: Accept`.
    ///
    /// - Throws: ``ParleyError``: ``ParleyError/Code/notAcceptable`` (406), or
    ///   ``ParleyError/Code/invalidRequest`` (400) when no element of `Accept` is a media range.
    public func reply(with value: Value, for request: HTTPRequest) throws(ParleyError) -> Reply {
        do { return try registry.reply(with: value, for: request) } catch {
            throw refined(error, request)
        }
    }

    /// Encodes an `Encodable` with ``valueEncoder``, then as ``reply(with:for:)``.
    ///
    /// - Throws: ``ParleyError`` as ``reply(with:for:)`` does, or ``ParleyError/Code/encodingFailed``.
    public func reply<T: Encodable>(encoding value: T, for request: HTTPRequest) throws(ParleyError) -> Reply {
        let tree: Value
        do { tree = try valueEncoder.encode(value) } catch {
            throw ParleyError(.encodingFailed, "cannot encode \(T.self): \(error)", underlying: [error])
        }
        return try reply(with: tree, for: request)
    }

    // MARK: Request bodies

    /// Decodes a request body to a value by its `Content-Type`, its `Content-Encoding` undone first.
    ///
    /// - Throws: ``ParleyError``: 400 (``ParleyError/Code/invalidRequest``) for a malformed
    ///   `Content-Type`, then what ``undoContentCoding(of:body:)`` and
    ///   ``Registry/decodeRequestBody(_:of:contentCodings:maxDecompressedBytes:)`` throw (415, 413, 400).
    public func decodeValue(_ body: [UInt8], of request: HTTPRequest) throws(ParleyError) -> Value {
        try checkContentType(of: request)
        let (request, body) = try undoContentCoding(of: request, body: body)
        return try registry.decodeRequestBody(body, of: request)
    }

    /// Decodes a request body into `T` by its `Content-Type`, through the format's own `Decodable`
    /// path (JSON decodes without building a value tree), its `Content-Encoding` undone first. An
    /// empty body without `Content-Type` decodes `T` from null.
    ///
    /// - Throws: ``ParleyError`` as ``decodeValue(_:of:)`` does; a body of plain text or raw bytes
    ///   is 415 (a `Decodable` type is never read from them); a body that does not fit `T` is
    ///   ``ParleyError/Code/decodingFailed`` (400) naming the coding path.
    public func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], of request: HTTPRequest) throws(ParleyError) -> T {
        guard let received = request.headerFields[.contentType] else {
            if !body.isEmpty || request.headerFields[.contentEncoding] != nil {
                _ = try registry.decodeRequestBody(body, of: request)   // the core's 415
            }
            do { return try valueDecoder.decode(T.self, from: .null) } catch {
                throw ParleyError(.decodingFailed, "cannot decode \(T.self) from an empty body: \(error)", underlying: [error])
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

    /// Undoes a request's `Content-Encoding` with ``contentCodings`` (the response pipeline's
    /// step 1), within ``maxDecompressedBytes`` and the matched format's body limit; the request
    /// comes back without `Content-Encoding` and `Content-Length` when a coding was undone.
    ///
    /// - Throws: ``ParleyError``: ``ParleyError/Code/unsupportedContentEncoding`` (415),
    ///   ``ParleyError/Code/limitExceeded`` (413), ``ParleyError/Code/decodingFailed`` (400, corrupt).
    public func undoContentCoding(of request: HTTPRequest, body: [UInt8]) throws(ParleyError) -> (HTTPRequest, [UInt8]) {
        try registry.undoContentCoding(of: request, body: body, contentCodings: contentCodings,
                                       maxDecompressedBytes: maxDecompressedBytes)
    }

    /// Throws 400 when the request's `Content-Type` is present but malformed.
    ///
    /// - Throws: ``ParleyError/Code/invalidRequest`` naming the field and where it breaks.
    public func checkContentType(of request: HTTPRequest) throws(ParleyError) {
        if let received = request.headerFields[.contentType] { _ = try parsedContentType(received) }
    }

    // MARK: Problems

    /// The answer to a failure: a problem document (RFC 9457) in a format the request accepts
    /// (JSON when it accepts none, never refused), with the error's status and the fields it
    /// calls for: `Accept` and `Accept-Encoding` on a 415
    /// (``Registry/unsupportedMediaTypeFields(contentCodings:)``), `Vary: Accept` always. 406 and
    /// 415 problems list the types in an `acceptable` member too.
    ///
    /// - Parameters:
    ///   - error: The failure.
    ///   - request: The request it answers.
    /// - Returns: The response head and body.
    public func problemAnswer(for error: ParleyError, to request: HTTPRequest) -> (response: HTTPResponse, body: [UInt8]) {
        let status = error.impliedStatus
        var extensions: Value.Object = [:]
        if !error.acceptableTypes.isEmpty, status == .notAcceptable || status == .unsupportedMediaType {
            extensions["acceptable"] = .array(error.acceptableTypes.map { .string($0.description) })
        }
        let extra = status == .unsupportedMediaType ? registry.unsupportedMediaTypeFields(contentCodings: contentCodings) : HTTPFields()
        return problemAnswer(ProblemDetails(status, detail: error.message, extensions: extensions),
                             status: status, fields: extra, to: request)
    }

    /// The answer carrying `problem` with `status` and `fields`, negotiated as
    /// ``problemAnswer(for:to:)`` does; a plain-text body when the registry encodes nothing.
    public func problemAnswer(_ problem: ProblemDetails, status: HTTPResponse.Status, fields: HTTPFields = [:],
                              to request: HTTPRequest) -> (response: HTTPResponse, body: [UInt8]) {
        var head: HTTPResponse
        let body: [UInt8]
        do {
            let reply = try registry.reply(with: problem, for: request)
            head = reply.response(status: status)
            body = reply.body
        } catch {
            head = HTTPResponse(status: status, headerFields: [.contentType: "text/plain; charset=utf-8", .vary: "Accept"])
            body = Array((problem.detail ?? problem.title ?? "\(status.code)").utf8)
        }
        for field in fields { head.headerFields.append(field) }
        return (head, body)
    }

    // MARK: Helpers

    /// 406 refined: `Accept` with no valid element at all is a malformed request (400).
    private func refined(_ error: ParleyError, _ request: HTTPRequest) -> ParleyError {
        guard error.code == .notAcceptable else { return error }
        let accept = request.headerFields[values: .accept].joined(separator: ", ")
        guard Self.isMalformedAccept(accept) else { return error }
        return ParleyError(.invalidRequest, "malformed Accept '\(accept)': no element is a media range")
    }

    /// Whether an `Accept` value has elements and none of them is a media range (RFC 9110
    /// §12.5.1), so it cannot mean anything. An empty value, or one with a single valid element,
    /// is not malformed (the negotiator skips invalid elements).
    public static func isMalformedAccept(_ accept: String) -> Bool {
        AcceptNegotiator.hasOnlyInvalidElements(accept)
    }

    private func parsedContentType(_ received: String) throws(ParleyError) -> MediaType {
        do { return try MediaType(parsing: received) } catch {
            throw ParleyError(.invalidRequest, "malformed Content-Type '\(received)': \(error)", receivedContentType: received)
        }
    }

    private var structuredDecodableTypes: [MediaType] {
        registry.formats.filter { !($0 is TextFormat || $0 is RawFormat) }.flatMap(\.decodableMediaTypes)
    }
}
