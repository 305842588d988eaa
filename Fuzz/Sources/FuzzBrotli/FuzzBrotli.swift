import FuzzSupport
import ParleyCompression

/// Arbitrary bytes as a `br` body, with a 1 MiB limit; see `fuzzDecompression(_:coding:)`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzDecompression(UnsafeRawBufferPointer(start: start, count: count), coding: .brotli)
    return 0
}
