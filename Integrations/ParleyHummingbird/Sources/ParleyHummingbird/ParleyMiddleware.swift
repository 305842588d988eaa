import HTTPTypes
public import Hummingbird
import NIOCore
import Parley
public import ParleyHTTP

/// Router middleware that puts Parley around every route added after it:
///
/// - a request body with `Content-Encoding: gzip` or `deflate` (the server's
///   `ParleyServer.contentCodings`) is decompressed before the route reads it, within
///   `ParleyServer.maxDecompressedBytes` (a gzip bomb is 413);
/// - errors become problem documents (RFC 9457) in a format the client accepts, JSON when it
///   accepts none: a `ParleyError` or ``ParleyProblem`` with the status it implies (406, 415,
///   413, 400), Hummingbird's `HTTPError` with its own status, fields and message;
/// - a HEAD request is answered without a body (the head, `Content-Length` included, as GET's);
///   create the router with `options: .autoGenerateHeadEndpoints` so every GET route answers HEAD.
///
/// Negotiated answers (``ParleyResponseEncoder``, ``Negotiated``, problems) carry `Vary: Accept`.
///
/// ```swift
/// let router = Router(context: AppContext.self, options: .autoGenerateHeadEndpoints)
/// router.add(middleware: ParleyMiddleware())
/// ```
public struct ParleyMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The formats, codings and limits.
    public let server: ParleyServer

    /// Creates the middleware with `server`.
    public init(server: ParleyServer) {
        self.server = server
    }

    /// Creates the middleware with the context's ``ParleyRequestContext/parley``.
    public init() where Context: ParleyRequestContext {
        self.init(server: Context.parley)
    }

    /// Decompresses the request body, runs the route, and answers failures as problems.
    public func handle(_ request: Request, context: Context,
                       next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(decompressed(request), context)
            return request.method == .head ? response.createHeadResponse() : response
        } catch let problem as ParleyProblem {
            // Negotiated from the Accept the failed reply scanned, when it carries one.
            return answer(problem.error, to: request, accepting: problem.accept)
        } catch let error as ParleyError {
            return answer(error, to: request)
        } catch let error as HTTPError {
            let problem = ProblemDetails(error.status, detail: error.body)
            let (head, body) = server.problemAnswer(problem, status: error.status, fields: error.headers,
                                                    to: request.head)
            return Response(head: head, body: body, for: request)
        } catch let error as NIOTooManyBytesError {
            // A route that collected its body itself, past its own limit.
            let (head, body) = server.problemAnswer(ProblemDetails(error.status), status: error.status,
                                                    to: request.head)
            return Response(head: head, body: body, for: request)
        }
    }

    /// The request with its `Content-Encoding` undone, or as it is when it has none.
    private func decompressed(_ request: Request) async throws -> Request {
        guard request.headers.contains(.contentEncoding) else { return request }
        let collected = try await server.collectBody(of: request)
        let (head, body) = try server.undoContentCoding(of: request.head, body: collected)
        return Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: body)))
    }

    private func answer(_ error: ParleyError, to request: Request, accepting accept: AcceptField? = nil) -> Response {
        let (head, body) = server.problemAnswer(for: error, to: request.head,
                                                accepting: accept ?? AcceptField(request.head.headerFields))
        return Response(head: head, body: body, for: request)
    }
}
