import Parley
import ParleyFixtures
import ParleyHTTP
import ParleyOpenAPI
import Testing

/// `Replayer` with a contract, checked as `parley check --openapi` checks
/// (`ContractChecker.recordedExchangeCheck`): Fixtures/recorded/api-session.har is stale against
/// Fixtures/contracts/api-session.openapi.yaml for GET /users/4213 (a `login`, no `username`),
/// which is refused; its 404 still conforms and is served.
@Suite struct ReplayContractTests {
    func replayer(contract: Bool) throws -> Replayer {
        let recording = try read("recorded/api-session.har")
        guard contract else { return Replayer(recordings: [recording]) }
        let document = try OpenAPIDocument(contentsOf: fixture("contracts/api-session.openapi.yaml"),
                                           registry: testRegistry)
        return Replayer(recordings: [recording], contract: ContractChecker(document: document, registry: testRegistry))
    }

    @Test func aStaleExchangeIsRefusedNamingItAndItsViolations() throws {
        let replayer = try replayer(contract: true)
        let error = #expect(throws: ReplayError.self) {
            try replayer.replay(method: "GET", url: "https://api.example.org/users/4213")
        }
        #expect(error?.request == "GET https://api.example.org/users/4213")
        let recorded = fixture("recorded/api-session.har")
        #expect(error?.reason == "the exchange recorded as \(recorded)#0 violates the contract")
        #expect(error?.violations.map(\.kind) == [.contractBody])
        #expect(error?.violations.first?.message.contains("username") == true)
        #expect(error?.violations.first?.schemaPath?.contains("/paths/~1users~1{id}/get/responses/200") == true)
        #expect(error?.description.contains("contract-body") == true)
    }

    @Test func theSameExchangeFailsParleyCheckWithTheSameFinding() throws {
        let document = try OpenAPIDocument(contentsOf: fixture("contracts/api-session.openapi.yaml"),
                                           registry: testRegistry)
        var options = CheckOptions(registry: testRegistry)
        options.contractCheck = ContractChecker(document: document, registry: testRegistry).recordedExchangeCheck
        let recording = try read("recorded/api-session.har")
        let result = ExchangeChecker(options: options).check(recording.exchanges[0], path: recording.path,
                                                             kind: recording.kind)
        let error = #expect(throws: ReplayError.self) {
            try replayer(contract: true).replay(method: "GET", url: "https://api.example.org/users/4213")
        }
        #expect(result.findings.filter { $0.kind == .contractBody } == error?.violations)
    }

    @Test func aConformingExchangeIsServed() throws {
        let exchange = try replayer(contract: true).replay(method: "GET", url: "https://api.example.org/users/0")
        #expect(exchange.response.status == 404)
    }

    @Test func withoutAContractTheStaleExchangeIsServed() throws {
        let exchange = try replayer(contract: false).replay(method: "GET", url: "https://api.example.org/users/4213")
        #expect(exchange.response.status == 200)
    }

    @Test func anExchangeNoOperationMatchesIsRefused() throws {
        let replayer = try replayer(contract: true)
        let error = #expect(throws: ReplayError.self) {
            try replayer.replay(method: "GET", url: "https://api.example.org/report.csv")
        }
        #expect(error?.reason.hasSuffix("api-session.har#10 violates the contract") == true)
        #expect(error?.violations.map(\.kind) == [.contractNoOperation])
    }
}
