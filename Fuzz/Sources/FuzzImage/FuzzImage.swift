import Parley
import ParleyImage

let limits = ImageLimits(DecodingLimits(maxBodyBytes: 1 << 20, maxPixels: 1 << 20, maxDecompressedBytes: 16 << 20),
                         maxDimension: 4096, maxFrames: 256)

/// Decodes arbitrary bytes as every image format (the magic bytes pick the reader): only an image
/// or a FormatError may come out, the header-only path must agree with the full decode, and the
/// pixels must be exactly width × height × 4 bytes. Seed it with ../shared/corpora/image.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let info: ImageInfo
    do {
        info = try ImageInfo(reading: bytes, limits: limits)
    } catch is FormatError {
        return 0
    } catch {
        fatalError("ImageInfo threw \(type(of: error)), not FormatError: \(error)")
    }
    do {
        let image = try Image(decoding: bytes, limits: limits)
        precondition(image.info == info, "the header-only path and the full decode disagree")
        precondition(image.pixels.count == info.width * info.height * 4, "wrong pixel count")
    } catch is FormatError {
        return 0
    } catch {
        fatalError("Image threw \(type(of: error)), not FormatError: \(error)")
    }
    return 0
}
