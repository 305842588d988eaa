import ParleyCompression

let limit = 1 << 20

/// Arbitrary bytes as a `zstd` body, with a 1 MiB limit: only bytes or a DecompressionError
/// may come out, never a trap, a hang or more than the limit. Whatever decodes must decode to
/// the same bytes at exactly its own size as the limit, fail one byte under it, and come back
/// through our encoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    _ = Decompressor.looksEncoded(bytes, coding: .zstd)
    let decoded: [UInt8]
    do {
        decoded = try Decompressor(maximumBytes: limit).decompress(bytes, coding: .zstd)
    } catch {
        if case .limitExceeded(let maximum) = error.reason, maximum != limit { fatalError("wrong limit in \(error)") }
        return 0
    }
    if decoded.count > limit { fatalError("\(decoded.count) bytes passed the limit of \(limit)") }
    do {
        let again = try Decompressor(maximumBytes: decoded.count).decompress(bytes, coding: .zstd)
        if again != decoded { fatalError("decoding twice gave different bytes") }
    } catch {
        fatalError("decoding at exactly the output's size failed: \(error)")
    }
    if !decoded.isEmpty {
        do {
            _ = try Decompressor(maximumBytes: decoded.count - 1).decompress(bytes, coding: .zstd)
            fatalError("decoding one byte under the output's size succeeded")
        } catch {
            if error.reason != .limitExceeded(maximum: decoded.count - 1) { fatalError("one byte under the size: \(error)") }
        }
    }
    let coded = Compressor().compress(decoded, coding: .zstd)
    guard Decompressor.looksEncoded(coded, coding: .zstd),
          (try? Decompressor(maximumBytes: limit).decompress(coded, coding: .zstd)) == decoded else {
        fatalError("our own zstd encoding of the decoded bytes did not round-trip")
    }
    return 0
}
