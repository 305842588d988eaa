public import Foundation
public import ParleyOpenAPI

extension GatewayConfiguration {
    /// What the gateway does with the exchanges an OpenAPI document describes (`--openapi SPEC`,
    /// the configuration's `contract:`): `report` logs the violations, counts them
    /// (`parley_gateway_contract_violations_total`) and writes them into the recording
    /// (`_parley.contract`); `enforce` also answers a violating request 400 without reaching the
    /// upstream and replaces a violating response by a 502.
    public typealias ContractMode = ParleyOpenAPI.ContractMode

    /// The OpenAPI document exchanges are checked against, and how.
    ///
    /// The request is checked as it goes upstream (after any transcoding), the response as the
    /// upstream sent it (before any transcoding): the document describes the upstream's API,
    /// whatever formats the gateway adds in front of it. Paths are the clients' (the document's
    /// `servers` give base paths).
    public struct Contract: Sendable, Equatable {
        /// The OpenAPI 3.0 or 3.1 document (JSON or YAML), read when the gateway starts.
        public var document: URL
        /// What happens to requests. Default `report`.
        public var requests: ContractMode
        /// What happens to responses. Default `report`.
        public var responses: ContractMode

        /// Creates contract settings.
        public init(document: URL, requests: ContractMode = .report, responses: ContractMode = .report) {
            self.document = document
            self.requests = requests
            self.responses = responses
        }
    }
}
