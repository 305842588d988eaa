import FuzzSupport
import Parley
import ParleyPropertyList

let format = PropertyListFormat()

/// Arbitrary bytes as a property list (XML or binary, detected from the content): only a value
/// or a FormatError, and our own output decodes again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzDecodeAndRoundTrip(format, as: "application/x-plist", bytes: UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
