import HTTPTypes
public import Parley
public import ParleyCompression
public import Vapor

/// Answers errors as problem details (RFC 9457) in a format the client accepts, and undoes
/// `Content-Encoding` on request bodies before the route reads them.
///
/// - Request bodies with `Content-Encoding: gzip` or `deflate` (or any coding in
///   `contentCodings`) are collected up to the body limit and decompressed within the same
///   limit, so a decompression bomb stops with 413; the route then sees the decoded body without
///   `Content-Encoding`. An unknown coding is 415 with `Accept-Encoding` listing the known ones.
///   Vapor's own request decompression must be off (`app.parley.use(_:)` turns it off).
/// - A `Content-Type` Parley cannot parse is 400, before any route runs.
/// - Every error thrown below it becomes a problem document chosen by
///   ``Parley/Registry/reply(with:for:)-(ProblemDetails,_)`` (JSON when nothing acceptable):
///   ``Parley/ParleyError``s with the status they imply (406 and 415 list the acceptable
///   types in `acceptable`), Vapor's `AbortError`s with theirs, `DecodingError`s as 400, and
///   anything else as 500 without its details.
///
/// `app.parley.use(_:)` installs it; add it yourself for a route group:
///
/// ```swift
/// app.grouped(ParleyMiddleware(registry: registry)).get("users") { req in … }
/// ```
public struct ParleyMiddleware: AsyncMiddleware {
    /// The formats problem documents are written in.
    public let registry: Registry
    /// The request codings undone before routing.
    public let contentCodings: ContentCodings
    /// The most bytes a coded request body, and its decoded form, may hold; `nil` uses
    /// `app.routes.defaultMaxBodySize` (16 KB unless configured).
    public let maxBodySize: Int?

    /// Creates the middleware.
    public init(registry: Registry, contentCodings: ContentCodings = .zlib, maxBodySize: Int? = nil) {
        self.registry = registry
        self.contentCodings = contentCodings
        self.maxBodySize = maxBodySize
    }

    /// Checks the request, undoes its content codings, and answers errors as problem details.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            if let received = request.headers.first(name: .contentType) {
                do { _ = try MediaType(parsing: received) } catch {
                    throw ParleyError(.invalidRequest, "malformed Content-Type '\(received)': \(error)",
                                      receivedContentType: received, acceptableTypes: registry.decodableMediaTypes)
                }
            }
            try await undoContentCodings(of: request)
            return try await next.respond(to: request)
        } catch {
            return problemResponse(for: error, to: request)
        }
    }

    /// Replaces a coded body with its decoded bytes, last coding first, within the body limit.
    private func undoContentCodings(of request: Request) async throws {
        let tokens = request.headers[.contentEncoding].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty && $0 != "identity" }
        guard !tokens.isEmpty else { return }
        let limit = maxBodySize ?? request.application.routes.defaultMaxBodySize.value
        let decoders = try tokens.reversed().map { token in
            guard let decoder = contentCodings.decoder(for: token) else {
                throw ParleyError(.unsupportedContentEncoding, "unsupported Content-Encoding '\(token)'")
            }
            return decoder
        }
        guard let collected = try await request.body.collect(max: limit).get() else { return }
        guard collected.readableBytes <= limit else {
            throw ParleyError(.limitExceeded, "the request body has \(collected.readableBytes) bytes, over the limit of \(limit)",
                              limit: FormatError.Limit(name: "maxBodySize", maximum: limit, actual: collected.readableBytes))
        }
        var body = Array(collected.readableBytesView)
        for decoder in decoders {
            do {
                body = try decoder.decode(body, maximumBytes: limit)
            } catch {
                if case .limitExceeded(let maximum) = error.reason {
                    throw ParleyError(.limitExceeded, "request body: \(error.description)",
                                      limit: FormatError.Limit(name: "maxBodySize", maximum: maximum, actual: nil))
                }
                throw ParleyError(.decodingFailed, "request body: \(error.description)")
            }
        }
        request.replaceBody(with: body)
        request.headers.remove(name: .contentEncoding)
        request.headers.replaceOrAdd(name: .contentLength, value: String(body.count))
    }

    /// The problem document answering `error`.
    func problemResponse(for error: any Error, to request: Request) -> Response {
        var (problem, headers) = Self.problem(for: error)
        if (error as? ParleyError)?.code == .unsupportedContentEncoding {
            headers.replaceOrAdd(name: .acceptEncoding,
                                 value: contentCodings.decoders.flatMap(\.tokens).joined(separator: ", "))
        } else if problem.status == 415, !headers.contains(name: .accept) {
            // Vapor's own 415 (no coder configured for the type): list what the registry decodes.
            for field in registry.unsupportedMediaTypeFields { headers.add(name: field.name.rawName, value: field.value) }
            problem.extensions["acceptable"] = .array(registry.decodableMediaTypes.map { .string($0.description) })
        }
        if problem.status ?? 500 >= 500 {
            request.logger.report(error: error)
        }
        let status = HTTPResponseStatus(statusCode: problem.status ?? 500)
        do {
            let reply: Reply
            do {
                reply = try registry.reply(with: problem, for: request.parley.httpRequest)
            } catch {
                // The accepted format cannot write a problem (CSV holds records): the preferred one.
                reply = try registry.reply(with: problem, accepting: nil)
            }
            return Response(status: status, reply: reply, extraHeaders: headers, allocator: request.byteBufferAllocator)
        } catch {
            // Only a registry that encodes nothing gets here.
            headers.replaceOrAdd(name: .contentType, value: "text/plain; charset=utf-8")
            return Response(status: status, headers: headers, body: .init(string: problem.detail ?? problem.title ?? ""))
        }
    }

    /// The problem and extra fields for an error.
    static func problem(for error: any Error) -> (ProblemDetails, HTTPHeaders) {
        switch error {
        case let error as ParleyError:
            var extensions: Value.Object = [:]
            if error.impliedStatus == .notAcceptable || error.impliedStatus == .unsupportedMediaType,
               error.code != .unsupportedContentEncoding, !error.acceptableTypes.isEmpty {
                extensions["acceptable"] = .array(error.acceptableTypes.map { .string($0.description) })
            }
            let detail = error.impliedStatus == .internalServerError ? nil : error.message
            return (ProblemDetails(error.impliedStatus, detail: detail, extensions: extensions), error.headers)
        case let error as any AbortError:
            let status = HTTPTypes.HTTPResponse.Status(code: Int(error.status.code))
            return (ProblemDetails(status, detail: error.reason), error.headers)
        case let error as DecodingError:
            return (ProblemDetails(.badRequest, detail: "the request body does not fit: \(error)"), [:])
        default:
            return (ProblemDetails(.internalServerError), [:])
        }
    }
}
