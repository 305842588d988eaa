import ParleyOpenAPI

// Contract checking (issue #35): the GET and POST exchanges of OpenAPIInputs checked whole
// (operation lookup, parameters, headers, body), each found valid before it is counted.

let openAPIPaths: [GatedPath] = [
    GatedPath("OpenAPI.check-get-2params-1KB-response", iterations: 1_000) { _ in
        checkCall(openAPIGetExchange) { checker, request, response in
            for _ in 0..<1_000 { consume(checker.check(request: request, response: response)) }
        }
    },
    GatedPath("OpenAPI.check-post-1KB-request", iterations: 1_000) { _ in
        checkCall(openAPIPostExchange) { checker, request, response in
            for _ in 0..<1_000 { consume(checker.check(request: request, response: response)) }
        }
    },
]

/// `run` with the shop checker and `exchange`, or a call that throws why the exchange is not a
/// valid one to measure.
func checkCall(
    _ exchange: (request: ContractRequest, response: ContractResponse),
    _ run: @escaping @Sendable (ContractChecker, ContractRequest, ContractResponse) -> Void
) -> @Sendable () throws -> Void {
    do {
        let checker = try makeShopChecker()
        let findings = checker.check(request: exchange.request, response: exchange.response)
        guard findings.isEmpty else {
            let message = findings.map(\.message).joined(separator: "; ")
            return { throw SchemaPathError(message: "the exchange has findings: \(message)") }
        }
        return { run(checker, exchange.request, exchange.response) }
    } catch {
        let message = "\(error)"
        return { throw SchemaPathError(message: message) }
    }
}
