import HTTPTypes
import Parley
import ParleyHTTP
import ParleyOpenAPI

/// The gateway's contract checks against the OpenAPI document of ``GatewayConfiguration/contract``:
/// the modes of each route, and the checks of one request and one response.
struct ContractGuard: Sendable {
    /// The checker of exchanges on routes without a registry of their own, and of replayed ones.
    let checker: ContractChecker
    /// What an exchange on no route is checked for.
    private let unrouted: ContractScope
    /// What an exchange on each route is checked for, by path prefix.
    private let routes: [String: ContractScope]

    /// The label of exchanges that match no operation in `parley_gateway_contract_violations_total`.
    static let noOperationLabel = "none"

    /// Creates the checks of `routes`, each route checked with its own registry from
    /// `routeRegistries` (its descriptor sets) when it has one, else with `registry`.
    init(document: OpenAPIDocument, registry: Registry, settings: GatewayConfiguration.Contract,
         routes: [GatewayConfiguration.Route] = [], routeRegistries: [String: Registry] = [:]) {
        checker = ContractChecker(document: document, registry: registry)
        unrouted = ContractScope(checker: checker, requests: settings.requests, responses: settings.responses)
        var scopes: [String: ContractScope] = [:]
        for route in routes {
            let checker = routeRegistries[route.pathPrefix].map { ContractChecker(document: document, registry: $0) }
            scopes[route.pathPrefix] = ContractScope(checker: checker ?? self.checker,
                                                     requests: route.contractRequests ?? settings.requests,
                                                     responses: route.contractResponses ?? settings.responses)
        }
        self.routes = scopes
    }

    /// What an exchange on `route` is checked for, or `nil` when nothing is checked.
    func contract(for route: GatewayConfiguration.Route?) -> ExchangeContract? {
        let scope = route.flatMap { routes[$0.pathPrefix] } ?? unrouted
        guard scope.requests != .off || scope.responses != .off else { return nil }
        return ExchangeContract(scope: scope)
    }

    /// Checks the request as it goes upstream, `body` `nil` when it streams (it was over the
    /// transcoding limit: a ``ContractFinding/Kind/unchecked`` warning), and notes the operation
    /// it matches in `contract`. With requests off, only the operation is looked up, or taken
    /// from `last` (the connection's last lookup) when the method and path are the same.
    func checkRequest(_ head: HTTPRequest, fields: HTTPFields, body: [UInt8]?, limit: Int,
                      into contract: ExchangeContract, last: inout OperationLookup?) {
        let checker = contract.scope.checker
        let target = head.path ?? "/"
        let method = head.method.rawValue
        guard contract.requests != .off, let body else {
            // The delimiter is ASCII: the target is scanned by its UTF-8 bytes, not by Characters.
            let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
            if let last, last.method == method, last.path == path {
                contract.operation = last.operation
            } else {
                let path = String(path)
                if let match = checker.document.operation(method: method, path: path), let operation = match.operation {
                    contract.operation = operation
                    last = OperationLookup(method: method, path: path, operation: operation)
                } else {
                    contract.add([ContractFinding(.noOperation,
                                                  "\(method) \(path) matches no operation of the document")])
                }
            }
            if contract.requests != .off, let operation = contract.operation {
                contract.add([ContractFinding(.unchecked, "the request to \(operation.name) is over the transcoding "
                                              + "limit of \(limit) bytes: not checked")])
            }
            return
        }
        let check = checker.checkRequest(ContractRequest(head, headerFields: fields, body: body))
        contract.operation = check.operation
        contract.add(check.findings)
    }
}

/// The operation a request's method and path (no query) matched, kept by a client connection:
/// a keep-alive client asking for the same path again (polling a resource) is not looked up again.
/// Every route checks against the same document, so the operation is the same whatever the route.
struct OperationLookup {
    let method: String
    let path: String
    let operation: CompiledOperation
}

/// What the exchanges on one route (or on none) are checked for, and with which checker: made
/// once when the gateway starts, shared by every exchange on it.
final class ContractScope: Sendable {
    let checker: ContractChecker
    let requests: GatewayConfiguration.ContractMode
    let responses: GatewayConfiguration.ContractMode

    init(checker: ContractChecker, requests: GatewayConfiguration.ContractMode,
         responses: GatewayConfiguration.ContractMode) {
        self.checker = checker
        self.requests = requests
        self.responses = responses
    }
}

/// What one exchange is checked for, and what its checks found: one object for the exchange,
/// its findings added in place as its request and response are checked.
final class ExchangeContract {
    let scope: ContractScope
    /// The operation the request matched; its response is checked against it.
    var operation: CompiledOperation?
    /// The findings so far, request's first.
    private(set) var findings: [ContractFinding] = []

    init(scope: ContractScope) { self.scope = scope }

    var requests: GatewayConfiguration.ContractMode { scope.requests }
    var responses: GatewayConfiguration.ContractMode { scope.responses }

    func add(_ more: [ContractFinding]) {
        if !more.isEmpty { findings += more }
    }

    /// The operation's label in metrics: its `operationId`, else its path template.
    var operationLabel: String {
        operation.map { $0.operationID ?? $0.pathTemplate } ?? ContractGuard.noOperationLabel
    }

    /// The response check to run once the upstream's body is in, `nil` when responses are not
    /// checked or the request matched no operation.
    func responseCheck(method: HTTPRequest.Method) -> ResponseContractCheck? {
        guard responses != .off, let operation else { return nil }
        return ResponseContractCheck(scope: scope, operation: operation, method: method.rawValue)
    }
}

/// A response check, ready to run wherever the body is decoded (the event loop or the thread pool).
struct ResponseContractCheck: Sendable {
    let scope: ContractScope
    let operation: CompiledOperation
    let method: String

    /// The findings of the upstream's `head` and `body`: against its value `decoded` when the
    /// gateway transcodes it; else the checker undoes the body's content coding, within `limit` (the
    /// transcoding limit: a body past it is not checked), and decodes it itself, the one path every
    /// contract check takes.
    func findings(_ head: HTTPResponse, body: [UInt8], decoded: Value?, limit: Int) -> [ContractFinding] {
        scope.checker.checkResponse(head, body: body, decoded: decoded, operation: operation, method: method,
                                    maxDecompressedBytes: limit)
    }
}

/// Contract violations the gateway answers instead of the exchange: 400 for a request, 502 for a
/// response, each a problem document listing them under `violations`.
struct ContractViolation: Error {
    let status: HTTPResponse.Status
    let findings: [ContractFinding]

    /// The problem document answered instead.
    var problem: ProblemDetails {
        ProblemDetails(status, contractViolations: findings,
                       by: status == .badRequest ? "the request" : "the upstream's response")
    }
}
