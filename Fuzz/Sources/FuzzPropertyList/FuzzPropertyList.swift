import Parley
import ParleyPropertyList

let format = PropertyListFormat()
let limits = DecodingLimits(maxBodyBytes: 1 << 20, maxDepth: 64, maxNodes: 100_000)

/// Decodes arbitrary bytes: only a value or a FormatError may come out, and a decoded value
/// that encodes must decode again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let context = DecodingContext(mediaType: "application/x-plist", limits: limits)
    let value: Value
    do {
        value = try format.decode(bytes, context: context)
    } catch is FormatError {
        return 0
    } catch {
        fatalError("decode threw \(type(of: error)), not FormatError: \(error)")
    }
    if let encoded = try? format.encode(value, as: "application/x-plist") {
        do { _ = try format.decode(encoded, as: "application/x-plist") } catch {
            fatalError("re-decoding our own output failed: \(error)")
        }
    }
    return 0
}
