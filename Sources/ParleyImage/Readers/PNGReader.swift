internal import CParleyImageShims
import Parley

/// PNG: the header parsed in Swift (IHDR with its CRC, tRNS, APNG's acTL); pixels through libpng.
enum PNGReader: ImageReader {
    static func info(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws -> ImageInfo {
        let r = ByteReader(bytes)
        func fail(_ message: String) -> FormatError { FormatError(.malformed, format: "png", message) }
        guard r.has(33, at: 0) else { throw FormatError.truncatedHeader(.png) }
        guard r.uint32BE(at: 8) == 13, r.uint32BE(at: 12) == 0x4948_4452 else {   // "IHDR"
            throw fail("the first chunk is not a 13-byte IHDR")
        }
        guard CRC32.checksum(r.slice(12, 17)) == r.uint32BE(at: 29) else { throw fail("IHDR checksum mismatch") }
        let width = Int(r.uint32BE(at: 16)), height = Int(r.uint32BE(at: 20))
        let depth = Int(r.uint8(at: 24)), colorType = r.uint8(at: 25)
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw fail("invalid dimensions \(width)×\(height)")
        }
        let depths: [Int] = switch colorType {
        case 0: [1, 2, 4, 8, 16]
        case 3: [1, 2, 4, 8]
        case 2, 4, 6: [8, 16]
        default: throw fail("invalid color type \(colorType)")
        }
        guard depths.contains(depth) else { throw fail("invalid bit depth \(depth) for color type \(colorType)") }
        guard r.uint8(at: 26) == 0, r.uint8(at: 27) == 0, r.uint8(at: 28) <= 1 else {
            throw fail("invalid compression, filter or interlace method")
        }
        // Chunks before the first IDAT: transparency and the APNG frame count.
        var offset = 33, hasTransparency = false, frames = 1
        while true {
            guard r.has(8, at: offset) else { throw FormatError.truncatedHeader(.png) }
            let length = Int(r.uint32BE(at: offset)), type = r.uint32BE(at: offset + 4)
            guard length <= Int(Int32.max) else { throw fail("chunk length \(length) too large") }
            if type == 0x4944_4154 { break }                                       // IDAT
            if type == 0x4945_4E44 { throw fail("no IDAT chunk before IEND") }     // IEND
            if type == 0x7452_4E53 { hasTransparency = true }                      // tRNS
            if type == 0x6163_544C, length >= 8 { frames = max(1, Int(r.uint32BE(at: offset + 8))) }  // acTL
            // Type, data and CRC must fit in what is left (compared, never added past the end).
            guard length <= r.count - offset - 8, 4 <= r.count - offset - 8 - length else {
                throw FormatError.truncatedHeader(.png)
            }
            offset += 12 + length
        }
        let color: ImageInfo.ColorType = switch colorType {
        case 0: .gray
        case 2: .rgb
        case 3: .palette
        case 4: .grayAlpha
        default: .rgba
        }
        return ImageInfo(kind: .png, width: width, height: height, colorType: color, bitDepth: depth,
                         hasAlpha: colorType == 4 || colorType == 6 || hasTransparency, frameCount: frames)
    }

    /// libpng's two row buffers (at most 8 bytes a pixel before transformations) and its zlib
    /// stream and chunk cache.
    static func reserve(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                        budget: inout ImageBudget) throws {
        let rowBuffers = 2 * (info.width * 8 + 48)          // width ≤ Int32.max: no overflow
        try budget.charge(rowBuffers + (64 << 10), for: "libpng's row buffers", format: info.kind.name)
    }

    static func decodePixels(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                             budget: ImageBudget, into out: UnsafeMutableRawBufferPointer) throws {
        // Ancillary chunks are skipped in the shim; a chunk libpng keeps (PLTE, tRNS) fits the rest.
        let chunkLimit = min(budget.remaining, 8 << 20)
        try ShimStatus.check(.png, budget: budget) { message in
            parley_png_decode_rgba(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                                   out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                   UInt32(info.width), UInt32(info.height), chunkLimit, message)
        }
    }
}
