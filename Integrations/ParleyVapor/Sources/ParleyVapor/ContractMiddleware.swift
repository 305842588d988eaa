import HTTPTypes
import Parley
public import ParleyHTTP
public import ParleyOpenAPI
public import Vapor

/// Checks exchanges against an OpenAPI document.
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
/// Put it inside ``ParleyMiddleware`` (which `app.parley.use(_:)` installs), so request bodies
/// are decompressed before the check and errors thrown by routes become problems (those
/// problems are not checked). The request body is collected (at most
/// `ParleyServer.maxRequestBodyBytes`, else 413), and a response body held in memory up to
/// ``maxResponseBodyBytes`` (a longer or streamed one is logged as not checked).
///
/// ```swift
/// let server = ParleyServer(registry: .linked)
/// app.parley.use(server)
/// let document = try OpenAPIDocument(contentsOf: "openapi.yaml", registry: server.registry)
/// let api = app.grouped(ContractMiddleware(document: document, server: server, responses: .enforce))
/// ```
public struct ContractMiddleware: AsyncMiddleware {
    /// The checker holding the document.
    public let checker: ContractChecker
    /// The formats problems are written with, and the request body limit.
    public let server: ParleyServer
    /// What a request violation does.
    public var requests: ContractMode
    /// What a response violation does.
    public var responses: ContractMode
    /// The largest response body checked. Default 16 MiB.
    public var maxResponseBodyBytes = 16 * 1024 * 1024

    /// Creates the middleware with a checker and the server answering its problems.
    public init(checker: ContractChecker, server: ParleyServer, requests: ContractMode = .enforce,
                responses: ContractMode = .off) {
        self.checker = checker
        self.server = server
        self.requests = requests
        self.responses = responses
    }

    /// Creates the middleware for `document`, checking bodies with the server's registry.
    public init(document: OpenAPIDocument, server: ParleyServer, requests: ContractMode = .enforce,
                responses: ContractMode = .off) {
        self.init(checker: ContractChecker(document: document, registry: server.registry), server: server,
                  requests: requests, responses: responses)
    }

    /// Checks the request, runs the route, and checks its response.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard requests != .off || responses != .off else { return try await next.respond(to: request) }
        let limit = server.maxRequestBodyBytes
        let collected = try await request.body.collect(max: limit).get() ?? ByteBuffer()
        let check = checker.checkRequest(ContractRequest(method: request.method.rawValue, target: request.url.string,
                                                         headers: request.headers.map { ($0.name, $0.value) },
                                                         body: Array(collected.readableBytesView)))
        if requests != .off {
            log(check.findings, of: "request", to: request)
            let violations = check.findings.filter(\.isViolation)
            if requests == .enforce, !violations.isEmpty {
                return problem(violations, status: .badRequest, by: "the request", to: request)
            }
        }
        let response = try await next.respond(to: request)
        guard responses != .off, let operation = check.operation else { return response }
        return checked(response, of: operation, to: request)
    }

    /// The response, or a 500 problem when it violates `operation` and responses are enforced.
    private func checked(_ response: Response, of operation: CompiledOperation, to request: Request) -> Response {
        guard let buffer = response.body.buffer, buffer.readableBytes <= maxResponseBodyBytes else {
            request.logger.warning(
                "contract-unchecked: the response body is streamed or over \(maxResponseBodyBytes) bytes")
            return response
        }
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        let head = HTTPResponse(status: .init(code: Int(response.status.code)), headerFields: fields)
        let findings = checker.checkResponse(head, body: Array(buffer.readableBytesView), operation: operation,
                                             method: request.method.rawValue,
                                             maxDecompressedBytes: maxResponseBodyBytes)
        log(findings, of: "response", to: request)
        let violations = findings.filter(\.isViolation)
        guard responses == .enforce, !violations.isEmpty else { return response }
        return problem(violations, status: .internalServerError, by: "the response", to: request)
    }

    /// The problem document listing `violations`, negotiated by the request's `Accept`.
    private func problem(_ violations: [ContractFinding], status: HTTPResponse.Status, by subject: String,
                         to request: Request) -> Response {
        let problem = ProblemDetails(status, contractViolations: violations, by: subject)
        let answer = server.problemAnswer(problem, status: status, to: request.parley.httpRequest,
                                          accepting: request.parley.accept)
        return Response(status: HTTPResponseStatus(statusCode: Int(answer.response.status.code)),
                        fields: answer.response.headerFields, body: answer.body, allocator: request.byteBufferAllocator)
    }

    /// Logs violations at `error` level and warnings at `warning` level.
    private func log(_ findings: [ContractFinding], of side: String, to request: Request) {
        let metadata: [String: String] = ["method": "\(request.method)", "path": "\(request.url.path)", "side": side]
        for finding in findings {
            if finding.isViolation {
                request.logger.error("\(finding)", metadata: metadata.mapValues { .string($0) })
            } else {
                request.logger.warning("\(finding)", metadata: metadata.mapValues { .string($0) })
            }
        }
    }
}
