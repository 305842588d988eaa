/// Bounds a decoder stays within, so hostile input fails with a
/// ``FormatError/Code/limitExceeded`` error instead of exhausting time or memory.
///
/// Every format honours the limits that apply to it and documents which those are.
/// Defaults are safe for untrusted input; raise one on purpose when you trust the source.
public struct DecodingLimits: Sendable, Hashable {
    /// The largest body accepted, in bytes. Default 64 MiB.
    public var maxBodyBytes: Int
    /// The deepest nesting of containers (arrays, objects, elements). Default 512.
    public var maxDepth: Int
    /// The most values, elements or objects one document may produce. Default 10 million.
    public var maxNodes: Int
    /// How many nodes (YAML aliases) or bytes (XML entities) expansion may produce for each
    /// input byte, beyond the first 64 KiB of output. Default 16.
    public var maxExpansionRatio: Int
    /// The most pixels (width × height × frames) an image may have before any pixel buffer is
    /// allocated. Default 64 megapixels.
    public var maxPixels: Int
    /// The most bytes a decoder may produce from compressed input (decompressed
    /// `Content-Encoding`, inflated image data). Default 256 MiB.
    public var maxDecompressedBytes: Int

    /// Creates limits; each argument defaults to the value in ``standard``.
    public init(
        maxBodyBytes: Int = 64 << 20,
        maxDepth: Int = 512,
        maxNodes: Int = 10_000_000,
        maxExpansionRatio: Int = 16,
        maxPixels: Int = 64_000_000,
        maxDecompressedBytes: Int = 256 << 20
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.maxExpansionRatio = maxExpansionRatio
        self.maxPixels = maxPixels
        self.maxDecompressedBytes = maxDecompressedBytes
    }

    /// The defaults: 64 MiB bodies, depth 512, 10 million nodes, expansion 16× past 64 KiB,
    /// 64 megapixels, 256 MiB decompressed.
    public static let standard = DecodingLimits()

    /// Throws ``FormatError/Code/limitExceeded`` when `count` bytes exceed ``maxBodyBytes``.
    public func checkBodySize(_ count: Int, format: String) throws(FormatError) {
        if count > maxBodyBytes {
            throw FormatError.limitExceeded(format: format, limit: "maxBodyBytes",
                                            maximum: maxBodyBytes, actual: count)
        }
    }
}
