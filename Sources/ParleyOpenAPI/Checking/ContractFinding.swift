public import Parley

/// One way an exchange departs from its OpenAPI document.
public struct ContractFinding: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of contract finding (the `kind` reports print).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Method and path match no operation.
        case noOperation = "contract-no-operation"
        /// The status is not declared, and there is no `default`.
        case status = "contract-status"
        /// The `Content-Type` is not declared for that response.
        case contentType = "contract-content-type"
        /// The response body violates its schema (one finding per violation).
        case body = "contract-body"
        /// A declared response header is missing or invalid.
        case header = "contract-header"
        /// A parameter or the request body violates the operation.
        case request = "contract-request"
        /// Declared without a schema, or in a type no registered format decodes: not checked (a warning).
        case unchecked = "contract-unchecked"
    }

    public let kind: Kind
    /// What exactly, naming the operation.
    public let message: String
    /// A JSON Pointer into the checked value, for schema violations.
    public let instancePath: String?
    /// The violated keyword's place in the document (`file#/pointer`), for schema violations.
    public let schemaPath: String?
    /// The offending value (at ``instancePath``), for schema violations.
    public let value: Value?

    /// Creates a finding.
    public init(_ kind: Kind, _ message: String, instancePath: String? = nil, schemaPath: String? = nil,
                value: Value? = nil) {
        self.kind = kind
        self.message = message
        self.instancePath = instancePath
        self.schemaPath = schemaPath
        self.value = value
    }

    public var description: String {
        var text = "\(kind.rawValue): \(message)"
        if let instancePath { text += " (at \(instancePath.isEmpty ? "/" : instancePath)" }
        if let schemaPath { text += (instancePath == nil ? " (" : ", ") + "schema \(schemaPath)" }
        if instancePath != nil || schemaPath != nil { text += ")" }
        return text
    }
}
