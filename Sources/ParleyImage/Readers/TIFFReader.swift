internal import CParleyImageShims
import Parley

/// TIFF: the first page's header and the page count through libtiff (from memory, through
/// `TIFFClientOpenExt` with per-handle error handlers); the first page's pixels through
/// `TIFFReadRGBAImageOriented`, which covers the common compressions (none, LZW, Deflate,
/// PackBits, JPEG, CCITT) and photometric interpretations.
///
/// Tag values count against `maxDecompressedBytes` before libtiff reads them (see
/// ``TIFFDirectories``): all directories' together on the header path, which copies each in turn
/// while counting pages (bounding time as well as memory); the first directory's, strip tables
/// included, with the pixel buffer on the full decode.
enum TIFFReader: ImageReader {
    static func info(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws -> ImageInfo {
        // Counting pages reads the first directory and up to maxFrames more: libtiff copies each
        // one's values, then frees them.
        let directoriesRead = limits.maxFrames < Int.max ? max(limits.maxFrames, 0) + 1 : Int.max
        let directories = TIFFDirectories.tagBytes(bytes, maxDirectories: directoriesRead, includesDeferredTags: false)
        var budget = ImageBudget(limits)
        for (index, tagBytes) in directories.enumerated() {
            let what = index == 0 ? "the tag values of the first directory"
                                  : "the tag values of directories 1 to \(index + 1)"
            try budget.charge(tagBytes, for: what, format: "tiff")
        }
        var header = parley_tiff_info_t()
        try ShimStatus.check(.tiff, budget: ImageBudget(limits)) { message in
            parley_tiff_info(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                             UInt32(clamping: limits.maxFrames), limits.maxDecompressedBytes, &header, message)
        }
        let samples = Int(header.samples_per_pixel), hasAlpha = header.extra_samples > 0
        let color: ImageInfo.ColorType = switch header.photometric {
        case 0, 1: hasAlpha ? .grayAlpha : .gray
        case 2, 6: hasAlpha ? .rgba : .rgb
        case 3: .palette
        case 5: .cmyk
        default: samples >= 4 ? .rgba : samples == 3 ? .rgb : samples == 2 ? .grayAlpha : .gray
        }
        return ImageInfo(kind: .tiff, width: Int(header.width), height: Int(header.height), colorType: color,
                         bitDepth: Int(header.bits_per_sample), hasAlpha: hasAlpha, frameCount: Int(header.page_count))
    }

    /// The first directory's tag values, which libtiff holds while it decodes.
    static func reserve(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                        budget: inout ImageBudget) throws {
        let tagBytes = TIFFDirectories.tagBytes(bytes, maxDirectories: 1, includesDeferredTags: true).first ?? 0
        try budget.charge(tagBytes, for: "the first directory's tag values (\(tagBytes) bytes)", format: "tiff")
    }

    /// libtiff may allocate what is left of the budget at once (strips, tiles, tables); it has no
    /// cumulative limit before 4.6.
    static func decodePixels(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                             budget: ImageBudget, into out: UnsafeMutableRawBufferPointer) throws {
        try ShimStatus.check(.tiff, budget: budget) { message in
            parley_tiff_decode_rgba(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                                    out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                    UInt32(info.width), UInt32(info.height), budget.remaining, message)
        }
    }
}
