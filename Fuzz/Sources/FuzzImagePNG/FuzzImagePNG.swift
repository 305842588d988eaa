import Parley
import ParleyImage

let limits = ImageLimits(DecodingLimits(maxBodyBytes: 1 << 20, maxPixels: 1 << 20, maxDecompressedBytes: 16 << 20),
                         maxDimension: 4096, maxFrames: 256)

/// Feeds bytes the sniffer takes for PNG (others are skipped) to the PNG decoder: only an image or a
/// FormatError may come out, a decoded image's header must match the header-only path, and its
/// pixels must be exactly width × height × 4 bytes. Seeds: Fuzz/Seeds/FuzzImagePNG.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard ImageKind(sniffing: bytes) == .png else { return 0 }
    do {
        let image = try Image(decoding: bytes, limits: limits)
        let info = try ImageInfo(reading: bytes, limits: limits)
        precondition(info == image.info, "the header-only path disagrees")
        precondition(image.pixels.count == image.width * image.height * 4, "wrong pixel count")
    } catch is FormatError {
        return 0
    } catch {
        fatalError("the png decoder threw \(type(of: error)), not FormatError: \(error)")
    }
    return 0
}
