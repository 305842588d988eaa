import Parley

/// One image format's reader: a header parse that never touches pixel data, and a pixel decode
/// into a buffer the caller allocated after checking the header against the limits.
protocol ImageReader {
    /// Reads the header (and counts frames) without decoding pixels.
    static func info(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws -> ImageInfo
    /// Decodes the first frame as RGBA8 into `out` (`info.width * info.height * 4` bytes).
    static func decodePixels(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                             into out: UnsafeMutableRawBufferPointer) throws
}

extension ImageKind {
    /// The reader for this kind.
    var reader: any ImageReader.Type {
        switch name {
        case "png": PNGReader.self
        case "jpeg": JPEGReader.self
        case "gif": GIFReader.self
        case "webp": WebPReader.self
        case "bmp": BMPReader.self
        case "ico": ICOReader.self
        default: TIFFReader.self
        }
    }
}

extension FormatError {
    /// A `truncated` error: the body ended inside the header of `kind`.
    static func truncatedHeader(_ kind: ImageKind) -> FormatError {
        FormatError(.truncated, format: kind.name, "the \(kind.name) header is incomplete")
    }
}
