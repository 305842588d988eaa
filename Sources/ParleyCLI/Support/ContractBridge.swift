import Parley
import ParleyFixtures
import ParleyHTTP
import ParleyOpenAPI

/// `parley check --openapi`: the document loaded once, and each recorded exchange checked against
/// it by `ContractChecker.recordedExchangeCheck` (the check a `Replayer` given a contract runs too).
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
        return ContractChecker(document: document, registry: registry).recordedExchangeCheck
    }
}
