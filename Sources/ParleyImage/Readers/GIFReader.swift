internal import CParleyImageShims
import Parley

/// GIF: the block structure walked in Swift (canvas, frames, transparency, without LZW
/// decoding); the first frame's pixels through giflib.
enum GIFReader: ImageReader {
    static func info(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws -> ImageInfo {
        let r = ByteReader(bytes)
        func fail(_ message: String, at offset: Int) -> FormatError {
            FormatError(.malformed, format: "gif", message, location: .init(byteOffset: offset))
        }
        guard r.has(13, at: 0) else { throw FormatError.truncatedHeader(.gif) }
        let width = Int(r.uint16LE(at: 6)), height = Int(r.uint16LE(at: 8))
        let packed = r.uint8(at: 10)
        var offset = 13 + (packed & 0x80 != 0 ? 3 << (Int(packed & 7) + 1) : 0)
        var frames = 0, transparent = false, pendingTransparency = false

        /// Skips a chain of data sub-blocks; returns false when the body ends inside it.
        func skipSubBlocks() -> Bool {
            while r.has(1, at: offset) {
                let size = Int(r.uint8(at: offset))
                offset += 1 + size
                if size == 0 { return true }
            }
            return false
        }

        walk: while r.has(1, at: offset) {
            switch r.uint8(at: offset) {
            case 0x3B:                                                      // trailer
                break walk
            case 0x21:                                                      // extension
                guard r.has(2, at: offset) else { throw FormatError.truncatedHeader(.gif) }
                if r.uint8(at: offset + 1) == 0xF9, r.has(7, at: offset) {  // graphic control
                    pendingTransparency = r.uint8(at: offset + 3) & 1 != 0
                }
                offset += 2
                guard skipSubBlocks() else { throw FormatError.truncatedHeader(.gif) }
            case 0x2C:                                                      // image descriptor
                guard r.has(10, at: offset) else { throw FormatError.truncatedHeader(.gif) }
                let frameWidth = Int(r.uint16LE(at: offset + 5)), frameHeight = Int(r.uint16LE(at: offset + 7))
                let framePacked = r.uint8(at: offset + 9)
                if frameWidth * frameHeight > limits.maxPixels {
                    throw FormatError.limitExceeded(format: "gif", limit: "maxPixels", maximum: limits.maxPixels,
                                                    actual: frameWidth * frameHeight)
                }
                if frames == 0 { transparent = pendingTransparency }
                frames += 1
                if frames > limits.maxFrames {
                    throw FormatError.limitExceeded(format: "gif", limit: "maxFrames", maximum: limits.maxFrames)
                }
                offset += 10 + (framePacked & 0x80 != 0 ? 3 << (Int(framePacked & 7) + 1) : 0)
                offset += 1                                                 // LZW minimum code size
                guard skipSubBlocks() else {
                    if frames > 1 { frames -= 1; break walk }              // a cut-off later frame: ignore it
                    throw FormatError(.truncated, format: "gif", "the first frame's data is incomplete")
                }
                pendingTransparency = false
            default:
                throw fail("unknown block 0x\(String(r.uint8(at: offset), radix: 16))", at: offset)
            }
        }
        guard frames > 0 else { throw fail("no image in the GIF", at: offset) }
        return ImageInfo(kind: .gif, width: width, height: height, colorType: .palette, bitDepth: 8,
                         hasAlpha: transparent, frameCount: frames)
    }

    static func decodePixels(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                             budget: ImageBudget, into out: UnsafeMutableRawBufferPointer) throws {
        try ShimStatus.check(.gif, budget: budget) { message in
            parley_gif_decode_first_frame_rgba(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                                               out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                               UInt32(info.width), UInt32(info.height), message)
        }
    }
}
