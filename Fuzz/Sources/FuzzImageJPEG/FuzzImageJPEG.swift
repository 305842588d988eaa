import FuzzSupport
import ParleyImage

/// Bytes the sniffer takes for JPEG (others are skipped) through the JPEG decoder; see
/// `fuzzImage(_:kind:)`. Seeds: Fuzz/Seeds/FuzzImageJPEG.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzImage(UnsafeRawBufferPointer(start: start, count: count), kind: .jpeg)
    return 0
}
