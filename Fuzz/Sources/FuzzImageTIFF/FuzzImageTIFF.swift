import FuzzSupport
import ParleyImage

/// Bytes the sniffer takes for TIFF (others are skipped) through the TIFF decoder; see
/// `fuzzImage(_:kind:)`. Seeds: Fuzz/Seeds/FuzzImageTIFF.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzImage(UnsafeRawBufferPointer(start: start, count: count), kind: .tiff)
    return 0
}
