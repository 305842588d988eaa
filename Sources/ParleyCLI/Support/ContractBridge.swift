import Parley
import ParleyFixtures
import ParleyHTTP
import ParleyOpenAPI

/// `parley check --openapi`: the document loaded once, and each recorded exchange checked against
/// it, its findings given the check's finding kinds.
enum ContractBridge {
    /// The check `CheckOptions.contractCheck` runs for the document at `path`.
    static func contractCheck(path: String, registry: Registry)
        throws -> @Sendable (RecordedExchange, [UInt8], Value?) -> [Finding]
    {
        let document: OpenAPIDocument
        do {
            document = try OpenAPIDocument(contentsOf: path, registry: registry)
        } catch {
            throw InputError(message: "--openapi: \(error)")
        }
        let checker = ContractChecker(document: document, registry: registry)
        return { exchange, body, value in
            guard !exchange.request.url.isEmpty else {
                return [Finding(.contractNoOperation, "the recording holds no request, so no operation can match")]
            }
            let request = ContractRequest(
                method: exchange.request.method, target: exchange.request.url,
                headers: exchange.request.headers.fields.map { ($0.name, $0.value) }, body: exchange.request.body ?? [])
            let response = ContractResponse(
                status: exchange.response.status, headers: exchange.response.headers.fields.map { ($0.name, $0.value) },
                body: body, decodedBody: value)
            return checker.check(request: request, response: response).map { finding in
                Finding(kind(finding.kind), finding.message, instancePath: finding.instancePath,
                        schemaPath: finding.schemaPath, value: finding.value)
            }
        }
    }

    static func kind(_ kind: ContractFinding.Kind) -> Finding.Kind {
        switch kind {
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
