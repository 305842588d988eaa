internal import CParleyZlib

/// Undoes `Content-Encoding: gzip` and `deflate` with zlib, never producing more bytes than a
/// limit allows (a decompression bomb fails with ``DecompressionError/Reason/limitExceeded(maximum:)``
/// after at most `maximumBytes` of output).
///
/// ```swift
/// let body = try Decompressor(maximumBytes: 16 << 20).decompress(compressed, coding: .gzip)
/// ```
public struct Decompressor: Sendable {
    /// The most bytes one call may produce. Default 256 MiB, as `DecodingLimits`.
    public var maximumBytes: Int

    /// Creates a decompressor with an output limit.
    public init(maximumBytes: Int = 256 << 20) {
        self.maximumBytes = maximumBytes
    }

    /// Decompresses `data` coded with `coding`.
    ///
    /// Concatenated gzip members are all decompressed (RFC 1952 §2.2). `deflate` accepts the
    /// zlib format and, failing that, raw deflate data.
    public func decompress(_ data: [UInt8], coding: ContentCoding) throws(DecompressionError) -> [UInt8] {
        switch coding {
        case .identity:
            guard data.count <= maximumBytes else { throw DecompressionError(.limitExceeded(maximum: maximumBytes), coding: coding) }
            return data
        case .gzip:
            return try inflate(data, windowBits: 16 + 15, coding: coding, multipleMembers: true)
        case .deflate:
            do {
                return try inflate(data, windowBits: 15, coding: coding, multipleMembers: false)
            } catch where error.reason == .corrupt {
                return try inflate(data, windowBits: -15, coding: coding, multipleMembers: false)
            }
        }
    }

    /// Whether `data` starts like a gzip member (the magic bytes `1f 8b` and method 8).
    public static func looksLikeGzip(_ data: some Collection<UInt8>) -> Bool {
        var iterator = data.makeIterator()
        return iterator.next() == 0x1F && iterator.next() == 0x8B && iterator.next() == 0x08
    }

    /// Whether `data` starts like a zlib stream (RFC 1950 header with a valid check value).
    public static func looksLikeZlib(_ data: some Collection<UInt8>) -> Bool {
        var iterator = data.makeIterator()
        guard let cmf = iterator.next(), let flg = iterator.next() else { return false }
        return cmf & 0x0F == 8 && cmf >> 4 <= 7 && (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0
    }

    private func inflate(_ data: [UInt8], windowBits: Int32, coding: ContentCoding,
                         multipleMembers: Bool) throws(DecompressionError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw DecompressionError(.corrupt, coding: coding, detail: "zlib could not start")
        }
        defer { inflateEnd(&stream) }

        var output: [UInt8] = []
        output.reserveCapacity(min(maximumBytes, max(data.count * 4, 4096)))
        let chunkSize = 64 << 10
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var failure: DecompressionError?

        data.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(chunkSize)
                    return CParleyZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunkSize - Int(stream.avail_out)
                if output.count + produced > maximumBytes {
                    failure = DecompressionError(.limitExceeded(maximum: maximumBytes), coding: coding)
                    return
                }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_OK:
                    continue
                case Z_STREAM_END:
                    // Another gzip member may follow (RFC 1952 §2.2).
                    if multipleMembers, stream.avail_in > 0, Self.looksLikeGzip(UnsafeBufferPointer(start: stream.next_in, count: Int(stream.avail_in))) {
                        inflateReset(&stream)
                        continue
                    }
                    return
                case Z_BUF_ERROR where stream.avail_in == 0:
                    failure = DecompressionError(.truncated, coding: coding)
                    return
                default:
                    let message = stream.msg.map { String(cString: $0) }
                    failure = DecompressionError(.corrupt, coding: coding, detail: message)
                    return
                }
            }
        }
        if let failure { throw failure }
        return output
    }
}
