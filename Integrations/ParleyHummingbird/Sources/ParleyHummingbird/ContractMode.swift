/// What a ``ContractMiddleware`` does with the violations of one side of an exchange.
public enum ContractMode: Sendable, Hashable {
    /// Not checked.
    case off
    /// Checked, violations logged at `error` level, the exchange left as it is (production).
    case report
    /// Checked, and a violation answered instead: 400 for a request, 500 for a response (development).
    case enforce
}
