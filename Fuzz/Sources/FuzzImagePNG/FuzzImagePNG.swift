import FuzzSupport
import ParleyImage

/// Bytes the sniffer takes for PNG (others are skipped) through the PNG decoder; see
/// `fuzzImage(_:kind:)`. Seeds: Fuzz/Seeds/FuzzImagePNG.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzImage(UnsafeRawBufferPointer(start: start, count: count), kind: .png)
    return 0
}
