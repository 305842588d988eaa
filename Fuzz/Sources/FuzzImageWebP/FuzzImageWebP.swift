import FuzzSupport
import ParleyImage

/// Bytes the sniffer takes for WebP (others are skipped) through the WebP decoder; see
/// `fuzzImage(_:kind:)`. Seeds: Fuzz/Seeds/FuzzImageWebP.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzImage(UnsafeRawBufferPointer(start: start, count: count), kind: .webp)
    return 0
}
