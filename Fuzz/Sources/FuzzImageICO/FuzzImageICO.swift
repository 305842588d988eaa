import FuzzSupport
import ParleyImage

/// Bytes the sniffer takes for ICO (others are skipped) through the ICO decoder; see
/// `fuzzImage(_:kind:)`. Seeds: Fuzz/Seeds/FuzzImageICO.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzImage(UnsafeRawBufferPointer(start: start, count: count), kind: .ico)
    return 0
}
