import Parley

/// One image format's reader: a header parse that never touches pixel data, a reservation of
/// what the library will hold besides the pixels, and a pixel decode into a buffer the caller
/// allocated after checking the header against the limits.
protocol ImageReader {
    /// Reads the header (and counts frames) without decoding pixels.
    static func info(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws -> ImageInfo
    /// Charges `budget` for what decoding this input makes the library hold besides the pixel
    /// buffer, or refuses the input, before anything is allocated. The default charges nothing.
    static func reserve(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                        budget: inout ImageBudget) throws
    /// Decodes the first frame as RGBA8 into `out` (`info.width * info.height * 4` bytes), with
    /// `budget.remaining` as the ceiling on the library's own memory.
    static func decodePixels(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                             budget: ImageBudget, into out: UnsafeMutableRawBufferPointer) throws
}

extension ImageReader {
    static func reserve(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                        budget: inout ImageBudget) throws {}
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
