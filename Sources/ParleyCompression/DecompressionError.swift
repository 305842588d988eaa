/// Why a compressed body could not be decompressed.
public struct DecompressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The bytes are not in the coding's format (no gzip header, bad checksum, …).
        case corrupt
        /// The data ended before the compressed stream did.
        case truncated
        /// Decompressing would produce more than the limit allows.
        case limitExceeded(maximum: Int)
    }

    /// What went wrong.
    public var reason: Reason
    /// The coding that was being undone.
    public var coding: ContentCoding
    /// zlib's message, when it gave one.
    public var detail: String?

    /// Creates an error.
    public init(_ reason: Reason, coding: ContentCoding, detail: String? = nil) {
        self.reason = reason
        self.coding = coding
        self.detail = detail
    }

    public var description: String {
        let what: String
        switch reason {
        case .corrupt: what = "the body is not valid \(coding) data"
        case .truncated: what = "the \(coding) data ends early"
        case .limitExceeded(let maximum): what = "decompressing the \(coding) body exceeds the limit of \(maximum) bytes"
        }
        return detail.map { "\(what) (\($0))" } ?? what
    }
}
