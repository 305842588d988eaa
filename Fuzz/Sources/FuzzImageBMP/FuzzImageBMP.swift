import FuzzSupport
import ParleyImage

/// Bytes the sniffer takes for BMP (others are skipped) through the BMP decoder; see
/// `fuzzImage(_:kind:)`. Seeds: Fuzz/Seeds/FuzzImageBMP.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzImage(UnsafeRawBufferPointer(start: start, count: count), kind: .bmp)
    return 0
}
