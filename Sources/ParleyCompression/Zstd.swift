internal import CParleyZstd
import ParleyHTTP

/// Zstandard (RFC 8878) on libzstd, streaming through one bounded scratch buffer.
enum Zstd {
    /// The largest window a `zstd` content coding may need, 8 MiB as a power of two: RFC 9659
    /// has encoders stay within it and lets decoders refuse more, which bounds decoder memory.
    static let maximumWindowLog: Int32 = 23

    /// Compresses `data` into one frame at `level` (the content size and a checksum in the
    /// frame). Levels 1 to 19 keep the window within ``maximumWindowLog``.
    static func compress(_ data: [UInt8], level: Int32) -> [UInt8] {
        guard let context = ZSTD_createCCtx() else { preconditionFailure("libzstd could not create a context") }
        defer { ZSTD_freeCCtx(context) }
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
        ZSTD_CCtx_setPledgedSrcSize(context, UInt64(data.count))
        var output = CodecOutput(expected: data.count / 4 + 64)
        data.withUnsafeBufferPointer { input in
            CodecOutput.withScratch { scratch in
                var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
                var remaining = 1
                while remaining != 0 {
                    var destination = ZSTD_outBuffer(dst: scratch.baseAddress, size: scratch.count, pos: 0)
                    remaining = ZSTD_compressStream2(context, &destination, &source, ZSTD_e_end)
                    precondition(ZSTD_isError(remaining) == 0, "libzstd failed to compress: \(errorMessage(remaining))")
                    _ = output.append(scratch, count: destination.pos)
                }
            }
        }
        return output.bytes
    }

    /// Decompresses one or more frames (RFC 8878 §3: skippable frames are skipped).
    static func decompress(_ data: [UInt8], maximumBytes: Int) throws(DecompressionError) -> [UInt8] {
        guard !data.isEmpty else { throw DecompressionError(.truncated, coding: .zstd) }
        guard let context = ZSTD_createDCtx() else {
            throw DecompressionError(.corrupt, coding: .zstd, detail: "libzstd could not start")
        }
        defer { ZSTD_freeDCtx(context) }
        ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, maximumWindowLog)
        // A frame that states its size gets it reserved, within the limit and within what such an
        // input can honestly claim (a lie costs at most this much untouched capacity).
        let declared = data.withUnsafeBufferPointer { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
        let expected = declared < UInt64(Int.max) ? min(Int(declared), data.count * 64 + (1 << 20)) : data.count * 4
        var output = CodecOutput(maximumBytes: maximumBytes, expected: expected)
        let failure: DecompressionError? = data.withUnsafeBufferPointer { input in
            CodecOutput.withScratch { scratch in
                var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
                while true {
                    let room = output.room
                    var destination = ZSTD_outBuffer(dst: scratch.baseAddress, size: room, pos: 0)
                    let hint = ZSTD_decompressStream(context, &destination, &source)
                    if ZSTD_isError(hint) != 0 { return Self.error(hint) }
                    guard output.append(scratch, count: destination.pos) else {
                        return DecompressionError(.limitExceeded(maximum: maximumBytes), coding: .zstd)
                    }
                    // 0: a frame is complete and flushed; another may follow.
                    if source.pos == source.size {
                        if hint == 0 { return nil }
                        if destination.pos < destination.size { return DecompressionError(.truncated, coding: .zstd) }
                    }
                }
            }
        }
        if let failure { throw failure }
        return output.bytes
    }

    /// Whether `data` starts with a frame's magic number (`28 B5 2F FD`) or a skippable
    /// frame's (`5?  2A 4D 18`).
    static func looksEncoded(_ data: some Collection<UInt8>) -> Bool {
        var iterator = data.makeIterator()
        guard let b0 = iterator.next(), let b1 = iterator.next(), let b2 = iterator.next(), let b3 = iterator.next()
        else {
            return false
        }
        let magic = UInt32(b0) | UInt32(b1) << 8 | UInt32(b2) << 16 | UInt32(b3) << 24
        return magic == ZSTD_MAGICNUMBER || magic & ZSTD_MAGIC_SKIPPABLE_MASK == ZSTD_MAGIC_SKIPPABLE_START
    }

    private static func error(_ code: Int) -> DecompressionError {
        if ZSTD_getErrorCode(code) == ZSTD_error_frameParameter_windowTooLarge {
            return DecompressionError(
                .corrupt, coding: .zstd,
                detail: "the frame's window is over the 8 MiB RFC 9659 allows a zstd content coding")
        }
        return DecompressionError(.corrupt, coding: .zstd, detail: errorMessage(code))
    }

    private static func errorMessage(_ code: Int) -> String {
        ZSTD_getErrorName(code).map { String(cString: $0) } ?? "libzstd error \(code)"
    }
}
