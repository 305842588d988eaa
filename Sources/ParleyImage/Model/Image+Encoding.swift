internal import CParleyImageShims
import Parley

extension Image {
    /// Encodes the pixels as PNG or JPEG.
    ///
    /// PNG is written 8-bit RGB when every pixel is opaque, RGBA otherwise, at zlib level
    /// `compressionLevel` (0…9, default 6). JPEG is baseline 4:2:0 at `quality` (1…100, default
    /// 90), alpha dropped.
    ///
    /// - Throws: `FormatError` `unsupportedMediaType` for another kind; `unsupportedValue` when
    ///   ``pixels`` does not hold exactly `width * height * 4` bytes or a dimension is not
    ///   positive and at most `Int32.max` (both are public and settable, and the encoders read
    ///   exactly that many bytes).
    public func encoded(as kind: ImageKind, quality: Int = 90, compressionLevel: Int = 6) throws -> [UInt8] {
        guard info.width > 0, info.height > 0, info.width <= Int(Int32.max), info.height <= Int(Int32.max),
              ImageBudget.product(info.width, info.height, 4) == pixels.count else {
            throw FormatError(.unsupportedValue, format: kind.name,
                              "\(pixels.count) bytes are not \(info.width)×\(info.height) RGBA8 pixels")
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let width = UInt32(info.width), height = UInt32(info.height)
        let opaque = !Swift.stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] != 255 }
        try pixels.withUnsafeBufferPointer { rgba in
            switch kind {
            case .png:
                try ShimStatus.check(.png) { message in
                    parley_png_encode_rgba(rgba.baseAddress, width, height, opaque ? 1 : 0,
                                           Int32(min(max(compressionLevel, 0), 9)), &output, &size, message)
                }
            case .jpeg:
                try ShimStatus.check(.jpeg) { message in
                    parley_jpeg_encode_rgba(rgba.baseAddress, width, height, Int32(min(max(quality, 1), 100)),
                                            &output, &size, message)
                }
            default:
                throw FormatError(
                    .unsupportedMediaType, format: kind.name, "Parley encodes PNG and JPEG, not \(kind.name)")
            }
        }
        defer { parley_image_free(output) }
        guard let output else { return [] }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
