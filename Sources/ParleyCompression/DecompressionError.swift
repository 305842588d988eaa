public import ParleyHTTP

/// Why a compressed body could not be decompressed.
public struct DecompressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong: corrupt, truncated, or over the limit (the response pipeline's reasons).
    public typealias Reason = ContentDecodingError.Reason

    /// What went wrong.
    public var reason: Reason
    /// The coding that was being undone.
    public var coding: ContentCoding
    /// The C library's message (zlib, libbrotli, libzstd), when it gave one.
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
        case .limitExceeded(let maximum):
            what = "decompressing the \(coding) body exceeds the limit of \(maximum) bytes"
        }
        return detail.map { "\(what) (\($0))" } ?? what
    }
}
