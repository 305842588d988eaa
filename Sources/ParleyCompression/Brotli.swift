internal import CParleyBrotli
import ParleyHTTP

/// Brotli (RFC 7932) on libbrotli, streaming through one bounded scratch buffer.
enum Brotli {
    /// Compresses `data` at `quality` (0–11), with the smallest window (10 to 22 bits) that
    /// holds the whole input: the window costs encoder and decoder memory, and one larger than
    /// the input gains nothing.
    static func compress(_ data: [UInt8], quality: Int32) -> [UInt8] {
        guard let state = BrotliEncoderCreateInstance(nil, nil, nil) else {
            preconditionFailure("libbrotli could not create an encoder")
        }
        defer { BrotliEncoderDestroyInstance(state) }
        var windowBits: UInt32 = 10  // BROTLI_MIN_WINDOW_BITS
        while windowBits < 22, (1 << windowBits) - 16 < data.count { windowBits += 1 }
        BrotliEncoderSetParameter(state, BROTLI_PARAM_QUALITY, UInt32(quality))
        BrotliEncoderSetParameter(state, BROTLI_PARAM_LGWIN, windowBits)
        BrotliEncoderSetParameter(state, BROTLI_PARAM_SIZE_HINT, UInt32(clamping: data.count))
        var output = CodecOutput(expected: data.count / 4 + 64)
        data.withUnsafeBufferPointer { input in
            CodecOutput.withScratch { scratch in
                var availableIn = input.count
                var nextIn = input.baseAddress
                repeat {
                    var availableOut = scratch.count
                    var nextOut = scratch.baseAddress
                    let ok = BrotliEncoderCompressStream(state, BROTLI_OPERATION_FINISH, &availableIn, &nextIn,
                                                         &availableOut, &nextOut, nil)
                    precondition(ok != 0, "libbrotli failed to compress")
                    _ = output.append(scratch, count: scratch.count - availableOut)
                } while BrotliEncoderIsFinished(state) == 0 || BrotliEncoderHasMoreOutput(state) != 0
            }
        }
        return output.bytes
    }

    /// Decompresses one Brotli stream; bytes after its end make it corrupt.
    static func decompress(_ data: [UInt8], maximumBytes: Int) throws(DecompressionError) -> [UInt8] {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else {
            throw DecompressionError(.corrupt, coding: .brotli, detail: "libbrotli could not start")
        }
        defer { BrotliDecoderDestroyInstance(state) }
        var output = CodecOutput(maximumBytes: maximumBytes, expected: max(data.count * 4, 4096))
        let failure: DecompressionError? = data.withUnsafeBufferPointer { input in
            CodecOutput.withScratch { scratch in
                var availableIn = input.count
                var nextIn = input.baseAddress
                while true {
                    let room = output.room
                    var availableOut = room
                    var nextOut = scratch.baseAddress
                    let result = BrotliDecoderDecompressStream(
                        state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    guard output.append(scratch, count: room - availableOut) else {
                        return DecompressionError(.limitExceeded(maximum: maximumBytes), coding: .brotli)
                    }
                    switch result {
                    case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
                        continue
                    case BROTLI_DECODER_RESULT_SUCCESS:
                        return availableIn == 0 ? nil
                            : DecompressionError(.corrupt, coding: .brotli,
                                                 detail: "\(availableIn) bytes after the end of the stream")
                    case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                        return DecompressionError(.truncated, coding: .brotli)
                    default:
                        return DecompressionError(.corrupt, coding: .brotli, detail: errorMessage(state))
                    }
                }
            }
        }
        if let failure { throw failure }
        return output.bytes
    }

    /// How many leading bytes ``looksEncoded(_:)`` checks for text.
    static let sniffedBytes = 4096

    /// ``Decompressor/looksLikeBrotli(_:)``.
    static func looksEncoded(_ data: some Collection<UInt8>) -> Bool {
        guard !data.isEmpty else { return false }
        let head = Array(data.prefix(sniffedBytes))
        guard head.withUnsafeBufferPointer({ looksLikeText($0, cut: head.count < data.count) }) else { return true }
        let bytes = data as? [UInt8] ?? Array(data)
        return isCompleteStream(bytes, outputCap: bytes.count * 4 + (64 << 10))
    }

    /// Whether `bytes` is one whole valid stream, output discarded; `true` once the output
    /// passes `outputCap` without an error (a bomb is left to the limit of the real decode).
    private static func isCompleteStream(_ bytes: [UInt8], outputCap: Int) -> Bool {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { return true }
        defer { BrotliDecoderDestroyInstance(state) }
        return bytes.withUnsafeBufferPointer { input in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16 << 10) { scratch in
                var availableIn = input.count
                var nextIn = input.baseAddress
                var produced = 0
                while produced <= outputCap {
                    var availableOut = scratch.count
                    var nextOut = scratch.baseAddress
                    let result = BrotliDecoderDecompressStream(
                        state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    produced += scratch.count - availableOut
                    switch result {
                    case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                    case BROTLI_DECODER_RESULT_SUCCESS: return availableIn == 0
                    default: return false
                    }
                }
                return true
            }
        }
    }

    /// Whether `bytes` reads as text: UTF-8 (a sequence cut by the end of a head is allowed when
    /// `cut`) without control characters other than tab, line feed, form feed and carriage return.
    static func looksLikeText(_ bytes: UnsafeBufferPointer<UInt8>, cut: Bool) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                guard byte >= 0x20 && byte != 0x7F || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
                else { return false }
                index += 1
                continue
            }
            let length = switch byte {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0
            }
            guard length > 0 else { return false }
            guard index + length <= bytes.count else { return cut }
            for offset in 1..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    private static func errorMessage(_ state: OpaquePointer) -> String {
        let code = BrotliDecoderGetErrorCode(state)
        return BrotliDecoderErrorString(code).map { String(cString: $0) } ?? "libbrotli error \(code.rawValue)"
    }
}
