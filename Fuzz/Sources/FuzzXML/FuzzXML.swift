import FuzzSupport
import Parley
import ParleyXML

let format = XMLFormat()

/// Arbitrary bytes as application/xml: only a value or a FormatError, and our own output decodes again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzDecodeAndRoundTrip(format, as: "application/xml", bytes: UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
