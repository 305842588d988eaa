import FuzzSupport
import Parley
import ParleyMessagePack

let format = MessagePackFormat()

/// Arbitrary bytes as application/msgpack: only a value or a FormatError, and our own output decodes
/// again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    fuzzDecodeAndRoundTrip(format, as: "application/msgpack", bytes: bytes, mustEncode: true)
    return 0
}
