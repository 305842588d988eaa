/// What an image's header says: its format, size, colour model, bit depth, alpha and frames.
///
/// Read it without decoding pixels with ``init(reading:limits:)`` (the header-only path), or get
/// it with the pixels from ``Image/init(decoding:limits:)``.
public struct ImageInfo: Sendable, Hashable {
    /// The colour model of the stored samples.
    public struct ColorType: Sendable, Hashable, CustomStringConvertible {
        /// `"gray"`, `"grayAlpha"`, `"rgb"`, `"rgba"`, `"palette"` or `"cmyk"`.
        public let rawValue: String
        /// Creates a colour type.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Gray samples.
        public static let gray = ColorType("gray")
        /// Gray and alpha samples.
        public static let grayAlpha = ColorType("grayAlpha")
        /// Red, green and blue samples (JPEG's YCbCr is reported as `rgb`).
        public static let rgb = ColorType("rgb")
        /// Red, green, blue and alpha samples.
        public static let rgba = ColorType("rgba")
        /// Indices into a colour table.
        public static let palette = ColorType("palette")
        /// Cyan, magenta, yellow and black samples (JPEG's YCCK is reported as `cmyk`).
        public static let cmyk = ColorType("cmyk")
    }

    /// The format, from the magic bytes (not from any label).
    public var kind: ImageKind
    /// Width in pixels (the canvas for animations; the largest entry for ICO).
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The colour model of the stored samples.
    public var colorType: ColorType
    /// Bits per sample (per index for ``ColorType/palette``).
    public var bitDepth: Int
    /// Whether the image carries transparency (an alpha channel or a transparent colour).
    public var hasAlpha: Bool
    /// Frames of an animation (GIF, WebP, APNG), pages (TIFF) or entries (ICO); 1 otherwise.
    public var frameCount: Int
    /// The EXIF orientation (1…8) a JPEG declares, 1 when it declares none. Parley reports it and
    /// never rotates pixels; 6 means "rotate 90° clockwise to display".
    public var orientation: Int

    /// Creates an image description.
    public init(kind: ImageKind, width: Int, height: Int, colorType: ColorType, bitDepth: Int,
                hasAlpha: Bool, frameCount: Int = 1, orientation: Int = 1) {
        self.kind = kind
        self.width = width
        self.height = height
        self.colorType = colorType
        self.bitDepth = bitDepth
        self.hasAlpha = hasAlpha
        self.frameCount = frameCount
        self.orientation = orientation
    }
}
