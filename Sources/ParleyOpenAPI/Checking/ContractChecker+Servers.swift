public import HTTPTypes
public import Parley
public import ParleyHTTP

/// What a server checks before it answers: the request alone.
public struct RequestCheck: Sendable {
    /// The operation the request matches, `nil` when it matches none; its response is checked against it.
    public let operation: CompiledOperation?
    /// The request's findings: ``ContractFinding/Kind/noOperation`` alone when it matches no
    /// operation, else its parameter and body findings.
    public let findings: [ContractFinding]
}

extension ContractChecker {
    /// Checks a request on its own, as a server middleware does before the route runs; the
    /// response is checked later with ``checkResponse(_:operation:method:)`` against
    /// ``RequestCheck/operation``.
    public func checkRequest(_ request: ContractRequest) -> RequestCheck {
        let (path, query) = request.pathAndQuery
        guard let match = document.operation(method: request.method, path: path) else {
            return RequestCheck(operation: nil, findings: [
                ContractFinding(.noOperation, "\(request.method.uppercased()) \(path) matches no path of the document"),
            ])
        }
        guard let operation = match.operation else {
            return RequestCheck(operation: nil, findings: [
                ContractFinding(.noOperation, "\(request.method.uppercased()) \(path) matches \(match.pathTemplate), "
                                + "which declares \(match.allowedMethods.joined(separator: ", ")) only"),
            ])
        }
        let findings = checkRequest(request, query: query, match: match, operation: operation)
        return RequestCheck(operation: operation, findings: findings)
    }
}

extension ContractFinding {
    /// Whether the finding is a violation; ``Kind/unchecked`` is a warning, not a violation.
    public var isViolation: Bool { kind != .unchecked }

    /// The finding as a member of a problem document's `violations` list: `kind` and `message`,
    /// then `instance_path`, `schema_path` and `value` where it has them (the names reports use).
    public var problemMember: Value {
        var member: Value.Object = ["kind": .string(kind.rawValue), "message": .string(message)]
        if let instancePath { member.append(key: "instance_path", value: .string(instancePath)) }
        if let schemaPath { member.append(key: "schema_path", value: .string(schemaPath)) }
        if let value { member.append(key: "value", value: value) }
        return .object(member)
    }
}

extension ProblemDetails {
    /// The problem a server answers instead of an exchange that violates the contract: `status`
    /// (400 for a request, 500 or 502 for a response), a detail naming `subject` ("the request")
    /// and the number of violations, and the violations under `violations`, each a
    /// ``ContractFinding/problemMember``.
    public init(_ status: HTTPResponse.Status, contractViolations violations: [ContractFinding], by subject: String) {
        let count = "\(violations.count) violation\(violations.count == 1 ? "" : "s")"
        self.init(status, detail: "\(subject) violates the API contract (\(count))",
                  extensions: ["violations": .array(violations.map(\.problemMember))])
    }
}
