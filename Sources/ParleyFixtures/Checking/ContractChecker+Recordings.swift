public import Parley
public import ParleyHTTP
public import ParleyOpenAPI

extension ContractChecker {
    /// The check of a recorded exchange that ``CheckOptions/contractCheck`` takes, the one
    /// `parley check --openapi` and a ``Replayer`` given a contract both run: the recorded request
    /// and the response (its body with the content coding undone, and the value it decoded to)
    /// checked against the document, each finding given the check finding kind of the same name.
    ///
    /// ```swift
    /// var options = CheckOptions(registry: registry)
    /// options.contractCheck = ContractChecker(document: document, registry: registry).recordedExchangeCheck
    /// ```
    public var recordedExchangeCheck: @Sendable (RecordedExchange, [UInt8], Value?) -> [Finding] {
        { exchange, body, value in
            guard !exchange.request.url.isEmpty else {
                return [Finding(.contractNoOperation, "the recording holds no request, so no operation can match")]
            }
            let request = ContractRequest(
                method: exchange.request.method, target: exchange.request.url,
                headers: exchange.request.headers.fields.map { ($0.name, $0.value) },
                body: exchange.request.body ?? [])
            let response = ContractResponse(
                status: exchange.response.status,
                headers: exchange.response.headers.fields.map { ($0.name, $0.value) },
                body: body, decodedBody: value)
            return check(request: request, response: response).map { finding in
                Finding(finding.kind.findingKind, finding.message, instancePath: finding.instancePath,
                        schemaPath: finding.schemaPath, value: finding.value)
            }
        }
    }
}

extension ContractFinding.Kind {
    /// The check finding kind of the same name (`contract-body` is `Finding.Kind.contractBody`).
    public var findingKind: Finding.Kind {
        switch self {
        case .noOperation: .contractNoOperation
        case .status: .contractStatus
        case .contentType: .contractContentType
        case .body: .contractBody
        case .header: .contractHeader
        case .request: .contractRequest
        case .unchecked: .contractUnchecked
        }
    }
}
