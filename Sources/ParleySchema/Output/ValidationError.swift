public import Parley

/// One failed keyword, in the JSON Schema output format's terms.
public struct ValidationError: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance, as a JSON Pointer (RFC 6901); `""` is the whole instance.
    public let instanceLocation: String
    /// The keyword's path through the schema as evaluated (through `$ref`s), as a JSON Pointer.
    public let keywordLocation: String
    /// The keyword's absolute location: its schema resource's URI with a JSON Pointer fragment.
    public let absoluteKeywordLocation: String
    /// What was wrong, in a sentence.
    public let message: String

    /// Creates an error.
    public init(instanceLocation: String, keywordLocation: String, absoluteKeywordLocation: String, message: String) {
        self.instanceLocation = instanceLocation
        self.keywordLocation = keywordLocation
        self.absoluteKeywordLocation = absoluteKeywordLocation
        self.message = message
    }

    public var description: String {
        "\(instanceLocation.isEmpty ? "/" : instanceLocation): \(message) (\(keywordLocation))"
    }

    /// The error as an output unit: `{"instanceLocation", "keywordLocation", "absoluteKeywordLocation", "error"}`.
    public var outputUnit: Value {
        [
            "instanceLocation": .string(instanceLocation), "keywordLocation": .string(keywordLocation),
            "absoluteKeywordLocation": .string(absoluteKeywordLocation), "error": .string(message),
        ]
    }
}

/// The outcome of validating one instance.
public struct ValidationResult: Sendable, Hashable {
    /// Whether the instance is valid.
    public let isValid: Bool
    /// The failures (empty when valid; at most one in ``JSONSchema/OutputMode/flag`` mode, at most
    /// ``JSONSchema/Limits/maxErrors`` in ``JSONSchema/OutputMode/basic`` mode).
    public let errors: [ValidationError]

    /// The result in the JSON Schema output format: `{"valid": …, "errors": [...]}`.
    public var output: Value {
        if isValid { return ["valid": true] }
        return ["valid": false, "errors": .array(errors.map(\.outputUnit))]
    }
}
