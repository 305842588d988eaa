public import HTTPTypes
public import Hummingbird
public import Parley
public import ParleyHTTP

/// A response generator that answers a value tree or an `Encodable` in the format the request's
/// `Accept` prefers, with `Content-Type` and `Vary: Accept`.
///
/// ```swift
/// router.get("/tree") { _, _ in Negotiated(["id": 7] as Value) }
/// router.post("/items") { _, _ in Negotiated(item, status: .created) }
/// ```
///
/// The formats are the context's ``ParleyRequestContext/parley``, or the `server` given.
public struct Negotiated<Content: Sendable>: ResponseGenerator, Sendable {
    /// What is sent.
    public let content: Content
    /// The status of a successful answer.
    public var status: HTTPResponse.Status
    /// More fields for a successful answer.
    public var headerFields: HTTPFields
    /// The formats; `nil` takes them from the request context.
    public var server: ParleyServer?
    private let makeReply: @Sendable (Content, ParleyServer, HTTPRequest, AcceptField) throws(ParleyError) -> Reply

    /// Answers a value tree.
    public init(_ value: Parley.Value, status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:],
                server: ParleyServer? = nil) where Content == Parley.Value {
        self.content = value
        self.status = status
        self.headerFields = headerFields
        self.server = server
        self.makeReply = { value, server, request, accept throws(ParleyError) in
            try server.reply(with: value, for: request, accepting: accept)
        }
    }

    /// Answers an `Encodable`, through the server's `ValueEncoder`.
    public init(_ value: Content, status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:],
                server: ParleyServer? = nil) where Content: Encodable {
        self.content = value
        self.status = status
        self.headerFields = headerFields
        self.server = server
        self.makeReply = { value, server, request, accept throws(ParleyError) in
            try server.reply(encoding: value, for: request, accepting: accept)
        }
    }

    /// The negotiated response. The request's `Accept` fields are scanned once: a failure's
    /// ``ParleyProblem`` carries the same `AcceptField`, so its problem is negotiated alike.
    ///
    /// - Throws: ``ParleyProblem`` (406, 400), or `HTTPError(.internalServerError)` when neither
    ///   `server` nor the context gives the formats.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        guard let server = server ?? context.parleyServer else {
            throw HTTPError(.internalServerError, message: "Negotiated needs a ParleyRequestContext or a server")
        }
        let accept = AcceptField(request.head.headerFields)
        do {
            var response = Response(try makeReply(content, server, request.head, accept), status: status)
            for field in headerFields { response.headers.append(field) }
            return response
        } catch {
            throw ParleyProblem(error, server: server, accepting: accept)
        }
    }
}
