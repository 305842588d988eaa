/// Applies a content coding: gzip and deflate with zlib, br with libbrotli, zstd with libzstd
/// (for replies, tests and fixtures). Each call streams the input through a 64 KiB buffer into
/// the output, an array reserved at a quarter of the input that grows as arrays do; nothing
/// else it holds is the size of the body (the codec's own state aside).
///
/// ```swift
/// let coded = Compressor().compress(Array(json.utf8), coding: .zstd)
/// ```
public struct Compressor: Sendable {
    /// zlib's compression level for gzip and deflate, 0 (none) to 9 (smallest); default 6.
    public var level: Int32
    /// Brotli's quality, 0 to 11; default 4 (see ``defaultBrotliQuality``).
    public var brotliQuality: Int32
    /// Zstandard's level, 1 to 19; default 3, libzstd's own default.
    public var zstdLevel: Int32

    /// Brotli's quality for responses made on the fly: 4, which gives smaller output than gzip at
    /// level 6 in less time; higher qualities (11 is the `brotli` tool's default, for static
    /// files) save a few bytes more for much more time.
    public static let defaultBrotliQuality: Int32 = 4

    /// Creates a compressor; out-of-range levels are clamped. Zstandard stops at 19 because
    /// higher levels need windows over the 8 MiB that RFC 9659 allows a `zstd` content coding.
    public init(level: Int32 = 6, brotliQuality: Int32 = Compressor.defaultBrotliQuality, zstdLevel: Int32 = 3) {
        self.level = max(0, min(9, level))
        self.brotliQuality = max(0, min(11, brotliQuality))
        self.zstdLevel = max(1, min(19, zstdLevel))
    }

    /// Compresses `data`: one gzip member, the zlib format for `deflate`, one Brotli stream, or
    /// one Zstandard frame; `identity` returns `data`.
    public func compress(_ data: [UInt8], coding: ContentCoding) -> [UInt8] {
        switch coding {
        case .identity: data
        case .gzip: Zlib.compress(data, level: level, windowBits: 16 + 15)
        case .deflate: Zlib.compress(data, level: level, windowBits: 15)
        case .brotli: Brotli.compress(data, quality: brotliQuality)
        case .zstd: Zstd.compress(data, level: zstdLevel)
        }
    }
}
