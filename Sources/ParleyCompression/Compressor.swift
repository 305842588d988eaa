internal import CParleyZlib

/// Applies `Content-Encoding: gzip` or `deflate` with zlib (for replies, tests and fixtures).
public struct Compressor: Sendable {
    /// zlib's compression level, 0 (none) to 9 (smallest); default 6.
    public var level: Int32

    /// Creates a compressor.
    public init(level: Int32 = 6) {
        self.level = max(0, min(9, level))
    }

    /// Compresses `data`: a single gzip member, or the zlib format for `deflate`.
    public func compress(_ data: [UInt8], coding: ContentCoding) -> [UInt8] {
        let windowBits: Int32
        switch coding {
        case .identity: return data
        case .gzip: windowBits = 16 + 15
        case .deflate: windowBits = 15
        }
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            preconditionFailure("zlib deflateInit2 failed with valid arguments")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, UInt(data.count)))
        var output = [UInt8](repeating: 0, count: bound)
        var written = 0
        data.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                let status = deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "deflate into a deflateBound buffer must finish")
                written = out.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(written...)
        return output
    }
}
