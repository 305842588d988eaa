import Parley

/// A decoded image: its ``ImageInfo`` and its first frame as RGBA8 pixels.
///
/// Pixels are rows top to bottom, 4 bytes per pixel (red, green, blue, alpha; straight, not
/// premultiplied alpha), no row padding: `pixels.count == width * height * 4`.
public struct Image: Sendable, Hashable {
    /// What the header said, with ``ImageInfo/kind`` the format that was decoded.
    public var info: ImageInfo
    /// The first frame (page, largest icon entry) as RGBA8.
    public var pixels: [UInt8]

    /// Width in pixels.
    public var width: Int { info.width }
    /// Height in pixels.
    public var height: Int { info.height }

    /// Creates an image from decoded parts.
    public init(info: ImageInfo, pixels: [UInt8]) {
        self.info = info
        self.pixels = pixels
    }

    /// Creates an image from RGBA8 pixels, for encoding. Its ``info`` describes the pixels as an
    /// 8-bit PNG would store them (`rgb` when every alpha is 255, `rgba` otherwise).
    ///
    /// - Throws: `FormatError` `unsupportedValue` when `rgba` does not hold exactly
    ///   `width * height * 4` bytes or a dimension is not positive.
    public init(width: Int, height: Int, rgba: [UInt8]) throws {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
              case (let count, false) = width.multipliedReportingOverflow(by: height),
              count.multipliedReportingOverflow(by: 4) == (rgba.count, false) else {
            throw FormatError(.unsupportedValue, format: "image",
                              "\(rgba.count) bytes are not \(width)×\(height) RGBA8 pixels")
        }
        let opaque = !stride(from: 3, to: rgba.count, by: 4).contains { rgba[$0] != 255 }
        self.info = ImageInfo(kind: .png, width: width, height: height, colorType: opaque ? .rgb : .rgba,
                              bitDepth: 8, hasAlpha: !opaque)
        self.pixels = rgba
    }
}
