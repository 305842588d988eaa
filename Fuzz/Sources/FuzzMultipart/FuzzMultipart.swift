import Parley
import ParleyHTTP

let decoder = MultipartDecoder(limits: .init(maxBodyBytes: 1 << 20, maxParts: 100, maxPartBytes: 1 << 20))

/// Arbitrary bytes as a `multipart/form-data` body with a fixed boundary, and with the boundary
/// read from the input's first line: parts or a thrown error, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    _ = try? decoder.decode(bytes, boundary: "fuzz-boundary")
    if let newline = bytes.firstIndex(of: 0x0A) {
        let contentType = "multipart/form-data; boundary=" + String(decoding: bytes[..<newline], as: UTF8.self)
        _ = try? decoder.decode(Array(bytes[(newline + 1)...]), contentType: contentType)
    }
    return 0
}
