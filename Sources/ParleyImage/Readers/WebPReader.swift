import CParleyImageShims
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

    static func decodePixels(_ bytes: UnsafeRawBufferPointer, info: ImageInfo, limits: ImageLimits,
                             into out: UnsafeMutableRawBufferPointer) throws {
        try ShimStatus.check(.webp) { message in
            parley_webp_decode_rgba(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                                    out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                    UInt32(info.width), UInt32(info.height), message)
        }
    }
}
