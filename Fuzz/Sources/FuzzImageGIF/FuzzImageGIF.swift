import FuzzSupport
import ParleyImage

/// Bytes the sniffer takes for GIF (others are skipped) through the GIF decoder; see
/// `fuzzImage(_:kind:)`. Seeds: Fuzz/Seeds/FuzzImageGIF.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzImage(UnsafeRawBufferPointer(start: start, count: count), kind: .gif)
    return 0
}
