import Parley
public import ParleyImage

/// Small image limits for fuzzing: a megapixel, 16 MiB of decoder memory.
let imageLimits = ImageLimits(DecodingLimits(maxBodyBytes: 1 << 20, maxPixels: 1 << 20, maxDecompressedBytes: 16 << 20),
                              maxDimension: 4096, maxFrames: 256)

/// Decodes `bytes` as an image when the sniffer takes them for `kind` (any kind when `nil`; others
/// are skipped): only an image or a `FormatError` may come out, the header-only path must agree
/// with the full decode, and the pixels must be exactly width × height × 4 bytes.
public func fuzzImage(_ bytes: UnsafeRawBufferPointer, kind: ImageKind?) {
    if let kind, ImageKind(sniffing: bytes) != kind { return }
    let name = kind?.name ?? "image"
    do {
        let image = try Image(decoding: bytes, limits: imageLimits)
        let info = try ImageInfo(reading: bytes, limits: imageLimits)
        precondition(info == image.info, "the \(name) header-only path disagrees with the full decode")
        precondition(image.pixels.count == image.width * image.height * 4, "wrong \(name) pixel count")
    } catch is FormatError {
        return
    } catch {
        fatalError("the \(name) decoder threw \(type(of: error)), not FormatError: \(error)")
    }
}
