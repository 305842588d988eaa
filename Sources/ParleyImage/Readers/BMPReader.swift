import Parley

/// BMP: a file header and a ``DIB``, read in Swift.
enum BMPReader: ImageReader {
    static func dib(_ bytes: UnsafeRawBufferPointer) throws -> DIB {
        let r = ByteReader(bytes)
        guard r.has(18, at: 0) else { throw FormatError.truncatedHeader(.bmp) }
        return try DIB.parse(r, headerOffset: 14, pixelOffset: Int(r.uint32LE(at: 10)), isIcon: false, format: "bmp")
    }

    static func info(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws -> ImageInfo {
        let dib = try dib(bytes)
        return ImageInfo(kind: .bmp, width: dib.width, height: dib.height, colorType: dib.colorType,
                         bitDepth: dib.bitDepth, hasAlpha: dib.colorType == .rgba)
    }

    static func decodePixels(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                             budget: ImageBudget, into out: UnsafeMutableRawBufferPointer) throws {
        try dib(bytes).decode(ByteReader(bytes), into: out, format: "bmp")
    }
}
