public import ParleyCompression
import ParleyHTTP

/// The property every content coding must keep on arbitrary bytes read as a body of `coding` with
/// a 1 MiB limit: only bytes or a `DecompressionError` may come out, never a trap, a hang or more
/// than the limit. Whatever decodes must decode to the same bytes at exactly its own size as the
/// limit, fail one byte under it, and come back through our encoder.
public func fuzzDecompression(_ input: UnsafeRawBufferPointer, coding: ContentCoding) {
    let limit = 1 << 20
    let bytes = [UInt8](input)
    _ = Decompressor.looksEncoded(bytes, coding: coding)
    let decoded: [UInt8]
    do {
        decoded = try Decompressor(maximumBytes: limit).decompress(bytes, coding: coding)
    } catch {
        if case .limitExceeded(let maximum) = error.reason, maximum != limit { fatalError("wrong limit in \(error)") }
        return
    }
    if decoded.count > limit { fatalError("\(decoded.count) bytes passed the limit of \(limit)") }
    do {
        let again = try Decompressor(maximumBytes: decoded.count).decompress(bytes, coding: coding)
        if again != decoded { fatalError("decoding twice gave different bytes") }
    } catch {
        fatalError("decoding at exactly the output's size failed: \(error)")
    }
    if !decoded.isEmpty {
        do {
            _ = try Decompressor(maximumBytes: decoded.count - 1).decompress(bytes, coding: coding)
            fatalError("decoding one byte under the output's size succeeded")
        } catch {
            if error.reason != .limitExceeded(maximum: decoded.count - 1) {
                fatalError("one byte under the size: \(error)")
            }
        }
    }
    let coded = Compressor().compress(decoded, coding: coding)
    guard Decompressor.looksEncoded(coded, coding: coding),
          (try? Decompressor(maximumBytes: limit).decompress(coded, coding: coding)) == decoded else {
        fatalError("our own \(coding) encoding of the decoded bytes did not round-trip")
    }
}
