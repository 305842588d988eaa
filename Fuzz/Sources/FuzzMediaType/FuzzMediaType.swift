import Parley

/// Parses arbitrary bytes as a media type; a parsed value must survive its own canonical text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard let type = try? MediaType(parsing: bytes) else { return 0 }
    guard let again = try? MediaType(parsing: type.description), again == type, again.hashValue == type.hashValue else {
        fatalError("media type did not survive its canonical text: \(type)")
    }
    return 0
}
