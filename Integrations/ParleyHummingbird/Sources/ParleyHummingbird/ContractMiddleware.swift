import HTTPTypes
public import Hummingbird
import Logging
import NIOCore
import Parley
public import ParleyHTTP
public import ParleyOpenAPI

/// Router middleware that checks exchanges against an OpenAPI document.
///
/// - Requests (``requests``, default `ContractMode.enforce`): a request that matches no
///   operation or violates its operation (a parameter of the wrong type, a required one missing,
///   an undeclared `Content-Type`, a body against its schema) is answered 400 with a problem
///   document whose `violations` member lists them (`kind`, `message`, `instance_path`,
///   `schema_path`, `value`), negotiated as every Parley answer is; the route never runs.
/// - Responses (``responses``, default `ContractMode.off`): the route's answer is checked
///   against the matched operation (status, `Content-Type`, headers, body); in
///   `ContractMode.enforce` a violation becomes a 500 problem listing them (development), in
///   `ContractMode.report` it is logged and the answer goes out unchanged (production).
///
/// Add it after ``ParleyMiddleware``, so request bodies are decompressed before the check and
/// errors thrown by routes become problems (those problems are not checked). The request body
/// is collected (at most `ParleyServer.maxRequestBodyBytes`, else 413), and a response body
/// of known length up to ``maxResponseBodyBytes`` (a longer or streamed one is logged as not checked).
///
/// ```swift
/// let document = try OpenAPIDocument(contentsOf: "openapi.yaml", registry: AppContext.parley.registry)
/// router.add(middleware: ParleyMiddleware())
/// router.add(middleware: ContractMiddleware(document: document, responses: .enforce))
/// ```
public struct ContractMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The checker holding the document.
    public let checker: ContractChecker
    /// The formats problems are written with, and the request body limit.
    public let server: ParleyServer
    /// What a request violation does.
    public var requests: ContractMode
    /// What a response violation does.
    public var responses: ContractMode
    /// The largest response body checked; a longer one, or one streamed without a length, is
    /// logged as not checked. Default 16 MiB.
    public var maxResponseBodyBytes = 16 * 1024 * 1024

    /// Creates the middleware with a checker and the server answering its problems.
    public init(checker: ContractChecker, server: ParleyServer, requests: ContractMode = .enforce,
                responses: ContractMode = .off) {
        self.checker = checker
        self.server = server
        self.requests = requests
        self.responses = responses
    }

    /// Creates the middleware for `document`, with the context's ``ParleyRequestContext/parley``.
    public init(document: OpenAPIDocument, requests: ContractMode = .enforce, responses: ContractMode = .off)
    where Context: ParleyRequestContext {
        self.init(checker: ContractChecker(document: document, registry: Context.parley.registry),
                  server: Context.parley, requests: requests, responses: responses)
    }

    /// Checks the request, runs the route, and checks its response.
    public func handle(_ request: Request, context: Context,
                       next: (Request, Context) async throws -> Response) async throws -> Response {
        guard requests != .off || responses != .off else { return try await next(request, context) }
        let body = try await server.collectBody(of: request)
        let request = Request(head: request.head, body: RequestBody(buffer: ByteBuffer(bytes: body)))
        let check = checker.checkRequest(ContractRequest(request.head, body: body))
        let violations = check.findings.filter(\.isViolation)
        if requests != .off {
            log(check.findings, of: "request", to: request, context: context)
            if requests == .enforce, !violations.isEmpty {
                return problem(violations, status: .badRequest, by: "the request", to: request)
            }
        }
        let response = try await next(request, context)
        guard responses != .off, let operation = check.operation else { return response }
        return try await checked(response, of: operation, to: request, context: context)
    }

    /// The response, its body collected; a 500 problem instead when it violates `operation` and
    /// responses are enforced.
    private func checked(_ response: Response, of operation: CompiledOperation, to request: Request,
                         context: Context) async throws -> Response {
        guard let length = response.body.contentLength, length <= maxResponseBodyBytes else {
            context.logger.warning(
                "contract-unchecked: the response body is streamed or over \(maxResponseBodyBytes) bytes",
                metadata: ["path": "\(request.uri.path)"])
            return response
        }
        var response = response
        let collector = BodyCollector()
        try await response.body.write(collector)
        response.body = ResponseBody(byteBuffer: collector.box.buffer)
        let findings = checker.checkResponse(response.head, body: Array(collector.box.buffer.readableBytesView),
                                             operation: operation, method: request.method.rawValue,
                                             maxDecompressedBytes: maxResponseBodyBytes)
        log(findings, of: "response", to: request, context: context)
        let violations = findings.filter(\.isViolation)
        guard responses == .enforce, !violations.isEmpty else { return response }
        return problem(violations, status: .internalServerError, by: "the response", to: request)
    }

    /// The problem document listing `violations`, negotiated by the request's `Accept`.
    private func problem(_ violations: [ContractFinding], status: HTTPResponse.Status, by subject: String,
                         to request: Request) -> Response {
        let problem = ProblemDetails(status, contractViolations: violations, by: subject)
        let (head, body) = server.problemAnswer(problem, status: status, to: request.head)
        return Response(head: head, body: body, for: request)
    }

    /// Logs violations at `error` level and warnings at `warning` level.
    private func log(_ findings: [ContractFinding], of side: String, to request: Request, context: Context) {
        let metadata: [String: String] = ["method": "\(request.method)", "path": "\(request.uri.path)", "side": side]
        for finding in findings {
            if finding.isViolation {
                context.logger.error("\(finding)", metadata: metadata.mapValues { .string($0) })
            } else {
                context.logger.warning("\(finding)", metadata: metadata.mapValues { .string($0) })
            }
        }
    }
}

/// Collects a response body whose length is known and bounded.
private struct BodyCollector: ResponseBodyWriter {
    /// Holds the bytes, since writing consumes the writer.
    final class Box {
        var buffer = ByteBuffer()
    }

    let box = Box()

    mutating func write(_ part: ByteBuffer) async throws {
        var part = part
        box.buffer.writeBuffer(&part)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
