import Parley

/// A request body: bytes in memory, or a multipart form produced on demand in bounded memory.
public enum RequestBody: Sendable {
    /// A body already in memory.
    case bytes([UInt8])
    /// A multipart form; its bytes are produced by ``MultipartFormData/makeReader()``.
    case multipart(MultipartFormData)

    /// The exact length in bytes (`Content-Length`), known without reading any file.
    public var contentLength: Int {
        switch self {
        case .bytes(let bytes): bytes.count
        case .multipart(let form): form.contentLength
        }
    }

    /// The whole body in memory: bytes as they are, a multipart form produced in full.
    ///
    /// - Parameter maxBytes: The largest body to collect; a longer one throws
    ///   `FormatError.Code.limitExceeded` before anything is read.
    public func collect(maxBytes: Int = 64 << 20) throws -> [UInt8] {
        switch self {
        case .bytes(let bytes): return bytes
        case .multipart(let form):
            try DecodingLimits(maxBodyBytes: maxBytes).checkBodySize(form.contentLength,
                                                                     format: MultipartFormData.formatName)
            return try form.encodedBytes()
        }
    }
}
