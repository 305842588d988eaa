import HTTPTypes
import Parley
import ParleyOpenAPI

/// The gateway's contract checks against the OpenAPI document of ``GatewayConfiguration/contract``:
/// the modes of each route, and the checks of one request and one response.
struct ContractGuard: Sendable {
    let checker: ContractChecker
    let requests: GatewayConfiguration.ContractMode
    let responses: GatewayConfiguration.ContractMode

    /// The label of exchanges that match no operation in `parley_gateway_contract_violations_total`.
    static let noOperationLabel = "none"

    init(document: OpenAPIDocument, registry: Registry, settings: GatewayConfiguration.Contract) {
        checker = ContractChecker(document: document, registry: registry)
        requests = settings.requests
        responses = settings.responses
    }

    /// What an exchange on `route` is checked for, or `nil` when nothing is checked.
    func contract(for route: GatewayConfiguration.Route?) -> ExchangeContract? {
        let requests = route?.contractRequests ?? self.requests
        let responses = route?.contractResponses ?? self.responses
        guard requests != .off || responses != .off else { return nil }
        return ExchangeContract(checker: checker, requests: requests, responses: responses)
    }

    /// Checks the request as it goes upstream, `body` `nil` when it streams (it was over the
    /// transcoding limit: a ``ContractFinding/Kind/unchecked`` warning), and notes the operation
    /// it matches in `contract`. With requests off, only the operation is looked up.
    func checkRequest(_ head: HTTPRequest, fields: HTTPFields, body: [UInt8]?, limit: Int,
                      into contract: inout ExchangeContract) {
        let target = head.path ?? "/"
        let method = head.method.rawValue
        guard contract.requests != .off, let body else {
            let path = String(target.prefix { $0 != "?" })
            if let match = checker.document.operation(method: method, path: path), let operation = match.operation {
                contract.operation = operation
            } else {
                contract.add([ContractFinding(.noOperation, "\(method) \(path) matches no operation of the document")])
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

/// What one exchange is checked for, and what its checks found.
struct ExchangeContract {
    let checker: ContractChecker
    let requests: GatewayConfiguration.ContractMode
    let responses: GatewayConfiguration.ContractMode
    /// The operation the request matched; its response is checked against it.
    var operation: CompiledOperation?
    /// The findings so far, request's first.
    private(set) var findings: [ContractFinding] = []

    init(checker: ContractChecker, requests: GatewayConfiguration.ContractMode,
         responses: GatewayConfiguration.ContractMode) {
        self.checker = checker
        self.requests = requests
        self.responses = responses
    }

    mutating func add(_ more: [ContractFinding]) { findings += more }

    /// The operation's label in metrics: its `operationId`, else its path template.
    var operationLabel: String {
        operation.map { $0.operationID ?? $0.pathTemplate } ?? ContractGuard.noOperationLabel
    }

    /// The response check to run once the upstream's body is in, `nil` when responses are not
    /// checked or the request matched no operation.
    func responseCheck(method: HTTPRequest.Method) -> ResponseContractCheck? {
        guard responses != .off, let operation else { return nil }
        return ResponseContractCheck(checker: checker, operation: operation, method: method.rawValue)
    }
}

/// A response check, ready to run wherever the body is decoded (the event loop or the thread pool).
struct ResponseContractCheck: Sendable {
    let checker: ContractChecker
    let operation: CompiledOperation
    let method: String

    /// The findings of the upstream's `head` and `body` (its value `decoded` when the gateway has
    /// it; else its content coding is undone before the body is decoded).
    func findings(_ head: HTTPResponse, body: [UInt8], decoded: Value?) -> [ContractFinding] {
        checker.checkResponse(head, body: body, decoded: decoded, operation: operation, method: method)
    }
}

/// Contract violations the gateway answers instead of the exchange: 400 for a request, 502 for a
/// response, each a problem document listing them under `violations`.
struct ContractViolation: Error {
    let status: HTTPResponse.Status
    let findings: [ContractFinding]

    var detail: String {
        let side = status == .badRequest ? "request" : "upstream's response"
        let count = findings.count
        return "the \(side) violates the OpenAPI document (\(count) violation\(count == 1 ? "" : "s"))"
    }

    var members: Value { .array(findings.map(\.problemMember)) }
}
