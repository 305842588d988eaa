internal import CParleyZlib
import ParleyHTTP

/// gzip and deflate on zlib, streaming through one bounded scratch buffer.
enum Zlib {
    /// Compresses `data` as one gzip member (`windowBits` 31) or in the zlib format (15).
    static func compress(_ data: [UInt8], level: Int32, windowBits: Int32) -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            preconditionFailure("zlib deflateInit2 failed with valid arguments")
        }
        defer { deflateEnd(&stream) }
        var output = CodecOutput(expected: data.count / 4 + 64)
        data.withUnsafeBufferPointer { input in
            CodecOutput.withScratch { scratch in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                var status = Z_OK
                while status != Z_STREAM_END {
                    stream.next_out = scratch.baseAddress
                    stream.avail_out = UInt32(scratch.count)
                    status = deflate(&stream, Z_FINISH)
                    precondition(
                        status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "zlib deflate failed")
                    _ = output.append(scratch, count: scratch.count - Int(stream.avail_out))
                }
            }
        }
        return output.bytes
    }

    /// Decompresses gzip (`windowBits` 31), zlib (15) or raw deflate (-15) data.
    static func decompress(_ data: [UInt8], windowBits: Int32, coding: ContentCoding, maximumBytes: Int,
                           multipleMembers: Bool) throws(DecompressionError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw DecompressionError(.corrupt, coding: coding, detail: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = CodecOutput(maximumBytes: maximumBytes, expected: max(data.count * 4, 4096))
        let failure: DecompressionError? = data.withUnsafeBufferPointer { input in
            CodecOutput.withScratch { scratch in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                while true {
                    let room = output.room
                    stream.next_out = scratch.baseAddress
                    stream.avail_out = UInt32(room)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    guard output.append(scratch, count: room - Int(stream.avail_out)) else {
                        return DecompressionError(.limitExceeded(maximum: maximumBytes), coding: coding)
                    }
                    switch status {
                    case Z_OK:
                        continue
                    case Z_STREAM_END:
                        // Another gzip member may follow (RFC 1952 §2.2).
                        if multipleMembers, stream.avail_in > 0,
                            Decompressor.looksLikeGzip(
                                UnsafeBufferPointer(start: stream.next_in, count: Int(stream.avail_in))) {
                            inflateReset(&stream)
                            continue
                        }
                        return nil
                    case Z_BUF_ERROR where stream.avail_in == 0:
                        return DecompressionError(.truncated, coding: coding)
                    default:
                        return DecompressionError(
                            .corrupt, coding: coding, detail: stream.msg.map { String(cString: $0) })
                    }
                }
            }
        }
        if let failure { throw failure }
        return output.bytes
    }
}
