internal import CParleyImageShims
import Parley

/// WebP: features through libwebp, the frame count of animations through libwebpdemux; the
/// still image, or an animation's first composed frame, through libwebp.
enum WebPReader: ImageReader {
    static func info(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws -> ImageInfo {
        var width: UInt32 = 0, height: UInt32 = 0, frames: UInt32 = 0
        var hasAlpha: Int32 = 0, isLossless: Int32 = 0
        try ShimStatus.check(.webp) { message in
            parley_webp_info(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                             &width, &height, &hasAlpha, &isLossless, &frames, message)
        }
        return ImageInfo(kind: .webp, width: Int(width), height: Int(height), colorType: hasAlpha != 0 ? .rgba : .rgb,
                         bitDepth: 8, hasAlpha: hasAlpha != 0, frameCount: max(1, Int(frames)))
    }

    /// libwebp's own image-sized buffers: lossless decoding keeps an ARGB copy of the image (4
    /// bytes a pixel); animation decoding keeps two RGBA canvases and copies the first frame out.
    static func reserve(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                        budget: inout ImageBudget) throws {
        let canvas = info.width * info.height * 4          // ≤ maxDecompressedBytes: charged already
        if info.frameCount > 1 {
            try budget.charge(canvas * 2, for: "libwebp's two animation canvases", format: "webp")
        }
        if info.frameCount > 1 || hasLosslessChunk(bytes) {
            try budget.charge(canvas, for: "libwebp's lossless ARGB buffer", format: "webp")
        }
    }

    /// Whether a top-level RIFF chunk is `VP8L` (a lossless still image).
    static func hasLosslessChunk(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let r = ByteReader(bytes)
        var offset = 12
        while r.has(8, at: offset) {
            if r.uint32BE(at: offset) == 0x5650_384C { return true }           // "VP8L"
            let size = Int(r.uint32LE(at: offset + 4))
            guard size <= r.count - offset - 8 else { return false }
            offset += 8 + size + size % 2
        }
        return false
    }

    static func decodePixels(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                             budget: ImageBudget, into out: UnsafeMutableRawBufferPointer) throws {
        try ShimStatus.check(.webp, budget: budget) { message in
            parley_webp_decode_rgba(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                                    out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                    UInt32(info.width), UInt32(info.height), message)
        }
    }
}
