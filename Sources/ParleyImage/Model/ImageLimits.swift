public import Parley

/// The bounds an image decode stays within, all checked from the header before any pixel
/// buffer is allocated.
///
/// Built from the core's `DecodingLimits` (body bytes, pixels, decompressed bytes) plus
/// two image-only bounds. Exceeding one throws `FormatError` `limitExceeded` naming it.
public struct ImageLimits: Sendable, Hashable {
    /// The largest body accepted, in bytes (`DecodingLimits.maxBodyBytes`, default 64 MiB).
    public var maxBodyBytes: Int
    /// The most pixels, width × height × frames (`DecodingLimits.maxPixels`, default 64 million).
    public var maxPixels: Int
    /// The decode's memory budget: the RGBA8 buffer plus what the library holds for the input
    /// (TIFF tag values, libpng row buffers, libjpeg coefficient arrays, libwebp buffers), each
    /// charged before it is allocated; the rest is the library's own ceiling
    /// (`DecodingLimits.maxDecompressedBytes`, default 256 MiB).
    public var maxDecompressedBytes: Int
    /// The largest width or height. Default 65,535.
    public var maxDimension: Int
    /// The most frames, pages or icon entries. Default 10,000.
    public var maxFrames: Int
    /// The most scans a JPEG may have. Default 1,000. Below it, a JPEG gets 16 scans plus one per
    /// width × height / 4,096 bytes of scan data, so empty scans cannot multiply the work.
    public var maxProgressiveScans: Int

    /// Creates limits from the core's limits and the image-only bounds.
    public init(_ limits: DecodingLimits = .standard, maxDimension: Int = 65_535, maxFrames: Int = 10_000,
                maxProgressiveScans: Int = 1_000) {
        self.maxBodyBytes = limits.maxBodyBytes
        self.maxPixels = limits.maxPixels
        self.maxDecompressedBytes = limits.maxDecompressedBytes
        self.maxDimension = maxDimension
        self.maxFrames = maxFrames
        self.maxProgressiveScans = maxProgressiveScans
    }

    /// The defaults.
    public static let standard = ImageLimits()

    /// Checks what a header declares: dimensions, frames, pixels over all frames, and the RGBA8
    /// buffer a full decode would allocate.
    func check(_ info: ImageInfo) throws {
        let format = info.kind.name
        for (name, value) in [("width", info.width), ("height", info.height)] where value <= 0 {
            throw FormatError(.malformed, format: format, "the header declares a \(name) of \(value)")
        }
        if info.width > maxDimension || info.height > maxDimension {
            throw FormatError.limitExceeded(format: format, limit: "maxDimension", maximum: maxDimension,
                                            actual: max(info.width, info.height))
        }
        if info.frameCount > maxFrames {
            throw FormatError.limitExceeded(format: format, limit: "maxFrames", maximum: maxFrames,
                                            actual: info.frameCount)
        }
        // maxDimension is the caller's to raise, so the products are checked.
        guard let area = ImageBudget.product(info.width, info.height),
              let pixels = ImageBudget.product(area, max(info.frameCount, 1)), pixels <= maxPixels else {
            throw FormatError.limitExceeded(
                format: format, limit: "maxPixels", maximum: maxPixels,
                actual: ImageBudget.product(info.width, info.height, max(info.frameCount, 1)))
        }
        if area > maxDecompressedBytes / 4 {
            throw FormatError.limitExceeded(format: format, limit: "maxDecompressedBytes",
                                            maximum: maxDecompressedBytes, actual: ImageBudget.product(area, 4))
        }
    }
}
