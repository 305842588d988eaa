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

/// Something the checker (or the reader) found about one recorded exchange.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of finding, each with a default severity (see ``CheckOptions/severities``).
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The body did not decode as its `Content-Type` says (error).
        case decodeFailed = "decode-failed"
        /// Decoding stopped at a limit (error).
        case limitExceeded = "limit-exceeded"
        /// The `Content-Type` does not parse (error).
        case malformedContentType = "malformed-content-type"
        /// A body without a `Content-Type` (warning).
        case missingContentType = "missing-content-type"
        /// No registered format decodes the `Content-Type` (warning).
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
        /// A `Content-Encoding` Parley does not decode, such as `br` (warning).
        case unsupportedEncoding = "unsupported-encoding"
        /// A `charset` Parley cannot convert (warning).
        case unsupportedCharset = "unsupported-charset"
        /// `Transfer-Encoding: chunked` with a body that is not chunk-framed (note).
        case chunkFraming = "chunk-framing"
        /// The status is not in the acceptable set (error; only with a status filter).
        case unacceptableStatus = "unacceptable-status"
        /// The decoded value differs from its pinned snapshot (error).
        case snapshotMismatch = "snapshot-mismatch"
        /// The response has no body to decode: HEAD, 1xx, 204, 304, or none recorded (note).
        case noBody = "no-body"

        public var description: String { rawValue }

        /// The severity used unless options say otherwise.
        public var defaultSeverity: Severity {
            switch self {
            case .decodeFailed, .limitExceeded, .malformedContentType, .corruptEncoding,
                 .unacceptableStatus, .snapshotMismatch: .error
            case .missingContentType, .unknownContentType, .mislabelledBody, .lengthMismatch,
                 .unsupportedEncoding, .unsupportedCharset: .warning
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

    /// Creates a finding with the kind's default severity unless one is given.
    public init(_ kind: Kind, _ message: String, severity: Severity? = nil) {
        self.kind = kind
        self.severity = severity ?? kind.defaultSeverity
        self.message = message
    }

    public var description: String { "\(severity) \(kind): \(message)" }
}
