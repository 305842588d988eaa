/// Why an OpenAPI document did not load, with the place it broke.
public struct OpenAPILoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public enum Code: String, Sendable, Hashable {
        /// The file cannot be read.
        case unreadable
        /// The bytes are not JSON or YAML (or no registered format decodes them).
        case undecodable
        /// The `openapi` field is missing or names a version other than 3.0.x or 3.1.x.
        case unsupportedVersion
        /// The document does not have the structure of an OpenAPI document.
        case invalidDocument
        /// A `$ref` names nothing: no such file, or no such place in it.
        case unresolvedReference
        /// A Schema Object does not compile.
        case invalidSchema
        /// A parameter's `style` is not allowed where it travels (`deepObject` in a path).
        case invalidParameter
    }

    /// What kind of failure.
    public let code: Code
    /// The file (a path; or the URI when it is not a local file) the failure is in.
    public let file: String
    /// A JSON Pointer into that file where it is known (`/paths/~1books/get`), else empty.
    public let pointer: String
    /// What is wrong there.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, file: String, pointer: String = "", message: String) {
        self.code = code
        self.file = file.hasPrefix("file://") ? String(file.dropFirst("file://".count)) : file
        self.pointer = pointer
        self.message = message
    }

    public var description: String {
        pointer.isEmpty ? "\(file): \(message)" : "\(file) at \(pointer): \(message)"
    }
}
