import FuzzSupport
import Parley
import ParleyYAML

let format = YAMLFormat()

/// Arbitrary bytes as application/yaml: only a value or a FormatError, and our own output decodes again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzDecodeAndRoundTrip(format, as: "application/yaml", bytes: UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
