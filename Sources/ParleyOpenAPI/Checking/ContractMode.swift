/// What a checker in front of live traffic (a server middleware, the gateway) does with the
/// violations of one side of an exchange.
public enum ContractMode: String, Sendable, Hashable, CaseIterable {
    /// Not checked.
    case off
    /// Checked; violations are reported (logged, and counted or recorded where the host does so)
    /// and the exchange goes on unchanged.
    case report
    /// Checked and reported, and a violation is answered instead: a request with 400, a response
    /// with the host's error status (500 in a server, 502 in the gateway).
    case enforce
}
