public import HTTPTypes
public import Hummingbird
public import Parley
public import ParleyHTTP

/// A `ParleyError` as a Hummingbird `HTTPResponseError`: its answer is the problem document
/// `ParleyServer.problemAnswer(for:to:accepting:)` makes, with the status the error implies (406,
/// 415, 413, 400) and, for HEAD, no body.
public struct ParleyProblem: HTTPResponseError, Sendable, CustomStringConvertible {
    /// The failure.
    public let error: ParleyError
    /// The formats the problem is written with.
    public let server: ParleyServer
    /// The request's `Accept` fields as the failed reply scanned them, so the problem is negotiated
    /// from the same value; `nil` when no reply scanned them (the problem scans the request's).
    public let accept: AcceptField?

    /// Wraps `error`; `accept` is the scanned `Accept` of the reply that failed, if any.
    public init(_ error: ParleyError, server: ParleyServer, accepting accept: AcceptField? = nil) {
        self.error = error
        self.server = server
        self.accept = accept
    }

    /// The status the error implies.
    public var status: HTTPResponse.Status { error.impliedStatus }

    /// The problem answer, negotiated from ``accept`` when the failed reply gave it.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let (head, body) = server.problemAnswer(for: error, to: request.head,
                                                accepting: accept ?? AcceptField(request.head.headerFields))
        return Response(head: head, body: body, for: request)
    }

    /// The error's one-line description.
    public var description: String { "\(status.code): \(error)" }
}

extension Response {
    /// A response carrying a reply, with `status`.
    init(_ reply: Reply, status: HTTPResponse.Status = .ok) {
        self.init(status: status, headers: reply.headerFields,
                  body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body)))
    }

    /// A response of `head` and `body`; a HEAD request gets the head and no body.
    init(head: HTTPResponse, body: [UInt8], for request: Request) {
        let full = Response(status: head.status, headers: head.headerFields,
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        self = request.method == .head ? full.createHeadResponse() : full
    }
}
