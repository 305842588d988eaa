import FuzzSupport

/// Arbitrary bytes as every image format (the magic bytes pick the reader); see
/// `fuzzImage(_:kind:)`. Seed it with ../shared/corpora/image.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzImage(UnsafeRawBufferPointer(start: start, count: count), kind: nil)
    return 0
}
