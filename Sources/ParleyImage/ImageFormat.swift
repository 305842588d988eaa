public import Parley

/// Images: PNG, JPEG, GIF, WebP, BMP, ICO and TIFF decoded to their metadata (and on request
/// their pixels), PNG and JPEG encoded from RGBA8.
///
/// ```swift
/// let metadata = try ImageFormat().decode(body, as: "image/png")
/// // ["mediaType": "image/png", "format": "png", "width": 32, "height": 32, ...]
/// ```
///
/// The format is read from the magic bytes, never trusted from the label: a body whose bytes
/// name another format than its `Content-Type` throws `FormatError.Code.mislabelled`
/// unless ``Options/acceptsMislabelledBodies`` is set, in which case the value carries
/// `"labelledAs"`. By default every decode also decodes the pixels (and discards them), so a
/// corrupt or truncated body fails; ``Options/Verification/header`` reads only the header.
/// For the rich result types call ``ImageInfo/init(reading:limits:)`` or
/// ``Image/init(decoding:limits:)``.
///
/// Limits (see ``ImageLimits``), all checked from the header before a pixel buffer is
/// allocated: `maxBodyBytes`, `maxPixels` (width × height × frames), `maxDecompressedBytes`
/// (one budget for the RGBA8 buffer and what the library holds for the input), and the
/// options' `maxDimension` and `maxFrames`.
public struct ImageFormat: Format {
    /// How a decode treats the body.
    public struct Options: Sendable, Hashable {
        /// How much of the body a decode checks.
        public enum Verification: Sendable, Hashable {
            /// Read the header only (and count frames): microseconds, no pixel buffer.
            case header
            /// Decode the first frame's pixels too, so corrupt or truncated data fails.
            case pixels
        }

        /// Whether a body whose magic bytes contradict its label decodes (with `"labelledAs"`
        /// in the value) instead of throwing `FormatError.Code.mislabelled`. Default `false`.
        public var acceptsMislabelledBodies: Bool
        /// How much of the body a decode checks. Default ``Verification/pixels``.
        public var verification: Verification
        /// Whether the decoded value carries the first frame as RGBA8 bytes in `"pixels"`. Default `false`.
        public var includesPixels: Bool
        /// The largest width or height. Default 65,535.
        public var maxDimension: Int
        /// The most frames, pages or icon entries. Default 10,000.
        public var maxFrames: Int
        /// JPEG quality for encoding, 1…100. Default 90.
        public var jpegQuality: Int

        /// Creates options.
        public init(acceptsMislabelledBodies: Bool = false, verification: Verification = .pixels,
                    includesPixels: Bool = false, maxDimension: Int = 65_535, maxFrames: Int = 10_000,
                    jpegQuality: Int = 90) {
            self.acceptsMislabelledBodies = acceptsMislabelledBodies
            self.verification = verification
            self.includesPixels = includesPixels
            self.maxDimension = maxDimension
            self.maxFrames = maxFrames
            self.jpegQuality = jpegQuality
        }
    }

    /// The options in force.
    public var options: Options

    /// Creates the format.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// `"image"`.
    public var name: String { "image" }

    /// `false`: the types replies use (PNG, JPEG, GIF, WebP) hold compressed data already.
    public var isCompressible: Bool { false }

    /// Every kind's media types, canonical first: `image/png`, `image/x-png`, `image/apng`,
    /// `image/jpeg`, `image/jpg`, `image/pjpeg`, `image/gif`, `image/webp`, `image/bmp`,
    /// `image/x-bmp`, `image/x-ms-bmp`, `image/x-win-bitmap`, `image/x-xbitmap`,
    /// `image/vnd.microsoft.icon`, `image/x-icon`, `image/ico`, `image/tiff`, `image/x-tiff`.
    public var decodableMediaTypes: [MediaType] { ImageKind.all.flatMap(\.mediaTypes) }

    /// `image/png` and `image/jpeg`.
    public var encodableMediaTypes: [MediaType] { ["image/png", "image/jpeg"] }

    /// The limits a decode applies for `limits`, with the options' image-only bounds.
    public func imageLimits(_ limits: DecodingLimits) -> ImageLimits {
        ImageLimits(limits, maxDimension: options.maxDimension, maxFrames: options.maxFrames)
    }

    /// The sniffed kind of a body, and the label's kind when it differs and the options accept
    /// it; otherwise the mislabel error.
    func checkLabel(_ bytes: UnsafeRawBufferPointer, mediaType: MediaType,
                    limits: ImageLimits) throws -> (kind: ImageKind, mislabelledAs: ImageKind?) {
        let kind = try ImageKind.require(bytes, limits: limits)
        guard let labelled = ImageKind(mediaType: mediaType), labelled != kind else { return (kind, nil) }
        if options.acceptsMislabelledBodies { return (kind, labelled) }
        throw FormatError(
            .mislabelled, format: name,
            "the body is labelled \(mediaType.essence) but its bytes are \(kind.mediaType) (\(kind.name) magic bytes)")
    }

    /// Decodes a body to its metadata object (see <doc:ValueMapping>).
    ///
    /// - Throws: `FormatError`: `mislabelled`, `malformed`, `truncated`, `limitExceeded`.
    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        let limits = imageLimits(context.limits)
        let (_, mislabel) = try checkLabel(bytes, mediaType: context.mediaType, limits: limits)
        var value: Value
        if options.verification == .header && !options.includesPixels {
            value = try ImageInfo.read(bytes, limits: limits).value
        } else {
            let image = try Image.decode(bytes, limits: limits)
            value = image.info.value
            if options.includesPixels, case .object(var object) = value {
                object.append(key: "pixels", value: .bytes(image.pixels))
                value = .object(object)
            }
        }
        if mislabel != nil, case .object(var object) = value {
            object.append(key: "labelledAs", value: .string(context.mediaType.essence))
            value = .object(object)
        }
        return value
    }

    /// Encodes an image value (`width`, `height`, `pixels` as RGBA8 bytes; an optional integer
    /// `quality` for JPEG) as `image/png` or `image/jpeg`.
    ///
    /// - Throws: `FormatError` `unsupportedValue` for another value,
    ///   `unsupportedMediaType` for another type.
    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        guard let kind = ImageKind(mediaType: context.mediaType), kind.isEncodable else {
            throw FormatError(
                .unsupportedMediaType, format: name, "Parley encodes image/png and image/jpeg, not \(context.mediaType)"
            )
        }
        let quality = value["quality"]?.integerValue.map { Int(clamping: $0) } ?? options.jpegQuality
        return try Image(value).encoded(as: kind, quality: quality)
    }
}
