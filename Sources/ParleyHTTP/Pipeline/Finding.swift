public import Parley

/// How much a finding matters.
public enum Severity: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Worth knowing; never fails a check.
    case note = 0
    /// Suspicious; fails a check only in strict mode.
    case warning = 1
    /// Fails the check.
    case error = 2

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .note: "note"
        case .warning: "warning"
        case .error: "error"
        }
    }
}

/// Something the response pipeline (or a recording reader) found about one response.
///
/// ``ResponsePipeline`` reports one finding per step that has something to say; a step that
/// stops the pipeline reports its finding and the `ParleyError` it stops with. Findings that
/// stop the pipeline (no value can be decoded) are errors by default, so a fixture check fails
/// exactly where an app's own client fails.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of finding, each with a default severity (a fixture check can override it).
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The body did not decode as its `Content-Type` says (error).
        case decodeFailed = "decode-failed"
        /// Decoding stopped at a limit (error).
        case limitExceeded = "limit-exceeded"
        /// The `Content-Type` does not parse (error).
        case malformedContentType = "malformed-content-type"
        /// A body without a `Content-Type` (error: nothing says how to decode it).
        case missingContentType = "missing-content-type"
        /// No registered format decodes the `Content-Type`, or the caller does not accept it (error).
        case unknownContentType = "unknown-content-type"
        /// The bytes are not what the label says: JSON labelled `text/html`, a JPEG labelled
        /// `image/png` (warning; an error when the body also fails to decode as labelled).
        case mislabelledBody = "mislabelled-body"
        /// `Content-Length` disagrees with the stored body (warning).
        case lengthMismatch = "length-mismatch"
        /// `Content-Encoding` names a coding but the body is stored already decoded (note).
        case storedDecoded = "stored-decoded"
        /// The body claims a coding and looks like it but does not decompress (error).
        case corruptEncoding = "corrupt-encoding"
        /// A `Content-Encoding` the pipeline's content codings do not undo, such as `br` (error).
        case unsupportedEncoding = "unsupported-encoding"
        /// A `charset` the charset converter does not know (error).
        case unsupportedCharset = "unsupported-charset"
        /// `Transfer-Encoding: chunked` with a body that is not chunk-framed (note).
        case chunkFraming = "chunk-framing"
        /// The message's framing is invalid, so its end cannot be known (RFC 9112 §6.3): a
        /// `Content-Length` that is not a length or declares more bytes than the whole recording
        /// holds, or a chunk size too large for the bytes that follow (error).
        case invalidFraming = "invalid-framing"
        /// The status is not in the acceptable set (error; only with a status filter).
        case unacceptableStatus = "unacceptable-status"
        /// The decoded value differs from its pinned snapshot (error).
        case snapshotMismatch = "snapshot-mismatch"
        /// The response has no content to decode: HEAD, 1xx, 204, 205, 304, an empty body the
        /// empty-body policy accepts, or a 206 byte range (note).
        case noBody = "no-body"
        /// Method and path match no operation of the OpenAPI document (error).
        case contractNoOperation = "contract-no-operation"
        /// The status is not declared for the operation, and it has no `default` (error).
        case contractStatus = "contract-status"
        /// The `Content-Type` is not declared for that response (error).
        case contractContentType = "contract-content-type"
        /// The response body violates its schema, one finding per violation (error).
        case contractBody = "contract-body"
        /// A declared response header is missing or invalid (error).
        case contractHeader = "contract-header"
        /// A parameter or the request body violates the operation (error).
        case contractRequest = "contract-request"
        /// Declared without a schema, or a type no registered format decodes: not checked (warning).
        case contractUnchecked = "contract-unchecked"

        public var description: String { rawValue }

        /// The severity used unless options say otherwise.
        public var defaultSeverity: Severity {
            switch self {
            case .decodeFailed, .limitExceeded, .malformedContentType, .corruptEncoding, .unacceptableStatus,
                 .snapshotMismatch, .missingContentType, .unknownContentType, .unsupportedEncoding, .unsupportedCharset,
                 .invalidFraming, .contractNoOperation, .contractStatus, .contractContentType, .contractBody,
                 .contractHeader, .contractRequest: .error
            case .mislabelledBody, .lengthMismatch, .contractUnchecked: .warning
            case .storedDecoded, .chunkFraming, .noBody: .note
            }
        }
    }

    /// What was found.
    public var kind: Kind
    /// How much it matters, after options are applied.
    public var severity: Severity
    /// A sentence saying what exactly, with offsets or lines where known.
    public var message: String
    /// For a schema violation: a JSON Pointer into the checked value (`/0/title`).
    public var instancePath: String?
    /// For a schema violation: the violated keyword's place in the schema's document.
    public var schemaPath: String?
    /// For a schema violation: the offending value (at ``instancePath``).
    public var value: Value?

    /// Creates a finding with the kind's default severity unless one is given.
    public init(_ kind: Kind, _ message: String, severity: Severity? = nil, instancePath: String? = nil,
                schemaPath: String? = nil, value: Value? = nil) {
        self.kind = kind
        self.severity = severity ?? kind.defaultSeverity
        self.message = message
        self.instancePath = instancePath
        self.schemaPath = schemaPath
        self.value = value
    }

    public var description: String {
        var text = "\(severity) \(kind): \(message)"
        if let instancePath { text += " [at \(instancePath.isEmpty ? "/" : instancePath)]" }
        if let schemaPath { text += " [schema \(schemaPath)]" }
        return text
    }
}
