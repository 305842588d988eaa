import ParleyHTTP

/// Undoes a content coding — gzip and deflate with zlib, br with libbrotli, zstd with libzstd —
/// never producing more bytes than a limit allows: a decompression bomb fails with
/// `limitExceeded(maximum:)` as soon as its output would pass `maximumBytes`. Corrupt data and
/// data that ends early fail with different reasons.
///
/// Memory: the input, the output (at most `maximumBytes`; an array reserved from an estimate
/// that grows as arrays do), a 64 KiB buffer and the coding's window: 32 KiB for zlib, at most
/// 16 MiB for Brotli (RFC 7932's largest), at most 8 MiB for Zstandard (frames asking more are
/// refused, as RFC 9659 allows).
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
    /// Concatenated gzip members are all decompressed (RFC 1952 §2.2), and so are
    /// concatenated Zstandard frames (RFC 8878 §3). `deflate` accepts the zlib format and,
    /// failing that, raw deflate data. A Brotli stream must end where the body ends.
    public func decompress(_ data: [UInt8], coding: ContentCoding) throws(DecompressionError) -> [UInt8] {
        switch coding {
        case .identity:
            guard data.count <= maximumBytes else {
                throw DecompressionError(.limitExceeded(maximum: maximumBytes), coding: coding)
            }
            return data
        case .gzip:
            return try Zlib.decompress(
                data, windowBits: 16 + 15, coding: coding, maximumBytes: maximumBytes, multipleMembers: true)
        case .deflate:
            do {
                return try Zlib.decompress(
                    data, windowBits: 15, coding: coding, maximumBytes: maximumBytes, multipleMembers: false)
            } catch where error.reason == .corrupt {
                return try Zlib.decompress(
                    data, windowBits: -15, coding: coding, maximumBytes: maximumBytes, multipleMembers: false)
            }
        case .brotli:
            return try Brotli.decompress(data, maximumBytes: maximumBytes)
        case .zstd:
            return try Zstd.decompress(data, maximumBytes: maximumBytes)
        }
    }

    /// Whether `data` carries `coding`'s signature (see the `looksLike…` functions); `false`
    /// for `identity`.
    public static func looksEncoded(_ data: some Collection<UInt8>, coding: ContentCoding) -> Bool {
        switch coding {
        case .gzip: looksLikeGzip(data)
        case .deflate: looksLikeZlib(data)
        case .brotli: looksLikeBrotli(data)
        case .zstd: looksLikeZstd(data)
        case .identity: false
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

    /// Whether `data` looks like a Brotli stream. Brotli has no magic number, so: a body whose
    /// first 4 KiB are not text (UTF-8 without control characters but tab and line breaks) is
    /// taken for Brotli, as any real stream but the tiniest is; a body that reads as text is
    /// Brotli only if the whole of it decodes as one valid stream (output discarded).
    ///
    /// So a JSON, HTML, YAML or plain-text body stored decoded is told apart, while a damaged
    /// Brotli stream still fails as corrupt or truncated; a binary body stored decoded under
    /// `br` fails as corrupt rather than being misread.
    public static func looksLikeBrotli(_ data: some Collection<UInt8>) -> Bool {
        Brotli.looksEncoded(data)
    }

    /// Whether `data` starts with a Zstandard frame's magic number (`28 b5 2f fd`) or a
    /// skippable frame's (`5? 2a 4d 18`).
    public static func looksLikeZstd(_ data: some Collection<UInt8>) -> Bool {
        Zstd.looksEncoded(data)
    }
}
