import FuzzSupport
import Parley
import ParleyJSON

let format = JSONFormat()

/// Arbitrary bytes as application/json: only a value or a FormatError, and our own output decodes again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzDecodeAndRoundTrip(format, as: "application/json", bytes: UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
