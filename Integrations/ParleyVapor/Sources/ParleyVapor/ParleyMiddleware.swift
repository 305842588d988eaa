import HTTPTypes
import Parley
public import ParleyHTTP
public import Vapor

/// Puts Parley around every route (``ParleyServer`` does the work, as in the Hummingbird
/// integration, so both answer alike):
///
/// - a `Content-Type` Parley cannot parse is a 400 problem before any route runs;
/// - a request body with `Content-Encoding: gzip` or `deflate` (the server's
///   `ParleyServer.contentCodings`) is collected up to `ParleyServer.maxRequestBodyBytes`
///   and decompressed within `ParleyServer.maxDecompressedBytes` before the route reads it, so
///   a gzip bomb is 413; the route sees the decoded body without `Content-Encoding`. An unknown
///   coding is 415 with `Accept-Encoding`. Vapor's own request decompression must be off
///   (`app.parley.use(_:)` turns it off);
/// - every error thrown below it becomes a problem document (RFC 9457) in a format the client
///   accepts, JSON when it accepts none (`ParleyServer.problemAnswer(for:to:)`): a
///   ``Parley/ParleyError`` with the status it implies (406 and 415 list the types), Vapor's
///   `AbortError` with its status, fields and reason (its 415 with the registry's decodable
///   types), a `DecodingError` as 400, anything else as 500 without its details (logged).
///
/// Vapor answers HEAD on every GET route with the GET's head and no body; negotiated answers
/// and problems carry `Vary: Accept`.
///
/// `app.parley.use(_:)` installs it; add it yourself to a route group instead:
///
/// ```swift
/// app.grouped(ParleyMiddleware(server: ParleyServer(registry: registry))).get("users") { req in … }
/// ```
public struct ParleyMiddleware: AsyncMiddleware {
    /// The formats, codings and limits.
    public let server: ParleyServer

    /// Creates the middleware.
    public init(server: ParleyServer) {
        self.server = server
    }

    /// Checks the request, undoes its content codings, runs the route, and answers failures as problems.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            if request.headers.contains(name: .contentType) {
                try server.checkContentType(of: request.parley.httpRequest)
            }
            try await undoContentCodings(of: request)
            return try await next.respond(to: request)
        } catch {
            return problemResponse(for: error, to: request)
        }
    }

    /// Replaces a coded body with its decoded bytes and drops `Content-Encoding`.
    private func undoContentCodings(of request: Request) async throws {
        guard request.headers.contains(name: .contentEncoding) else { return }
        let limit = server.maxRequestBodyBytes
        let collected = try await request.body.collect(max: limit).get() ?? ByteBuffer()
        guard collected.readableBytes <= limit else { throw Abort(.payloadTooLarge) }
        let (_, body) = try server.undoContentCoding(of: request.parley.httpRequest,
                                                     body: Array(collected.readableBytesView))
        request.replaceBody(with: body)
        request.headers.remove(name: .contentEncoding)
        request.headers.replaceOrAdd(name: .contentLength, value: String(body.count))
    }

    /// The problem document answering `error`.
    func problemResponse(for error: any Error, to request: Request) -> Response {
        let head = request.parley.httpRequest
        let accept = request.parley.accept
        let answer: (response: HTTPResponse, body: [UInt8])
        switch error {
        case let error as ParleyError:
            answer = server.problemAnswer(for: error, to: head, accepting: accept)
        case let abort as any AbortError where abort.status == .unsupportedMediaType:
            // Vapor's own 415 (no coder configured for the type): the registry's decodable types.
            let received = request.headers.first(name: .contentType) ?? ""
            let error = ParleyError.unsupportedMediaType(received, acceptable: server.registry.decodableMediaTypes)
            answer = server.problemAnswer(for: error, to: head, accepting: accept)
        case let abort as any AbortError:
            let status = HTTPResponse.Status(code: Int(abort.status.code))
            var fields = HTTPFields()
            for (name, value) in abort.headers {
                if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
            }
            answer = server.problemAnswer(ProblemDetails(status, detail: abort.reason), status: status, fields: fields,
                                          to: head, accepting: accept)
        case let error as DecodingError:
            let problem = ProblemDetails(.badRequest, detail: "the request body does not fit: \(error)")
            answer = server.problemAnswer(problem, status: .badRequest, to: head, accepting: accept)
        default:
            request.logger.report(error: error)
            answer = server.problemAnswer(ProblemDetails(.internalServerError), status: .internalServerError,
                                          to: head, accepting: accept)
        }
        return Response(status: HTTPResponseStatus(statusCode: Int(answer.response.status.code)),
                        fields: answer.response.headerFields, body: answer.body, allocator: request.byteBufferAllocator)
    }
}
