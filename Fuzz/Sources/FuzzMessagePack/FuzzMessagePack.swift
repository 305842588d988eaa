import Parley
import ParleyMessagePack

let format = MessagePackFormat()
let limits = DecodingLimits(maxBodyBytes: 1 << 20, maxDepth: 64, maxNodes: 100_000)

/// Decodes arbitrary bytes: only a value or a FormatError may come out, and a decoded value
/// must encode (every decoded value has a MessagePack form) and decode again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let context = DecodingContext(mediaType: "application/msgpack", limits: limits)
    let value: Value
    do {
        value = try format.decode(bytes, context: context)
    } catch is FormatError {
        return 0
    } catch {
        fatalError("decode threw \(type(of: error)), not FormatError: \(error)")
    }
    do {
        _ = try format.decode(try format.encode(value), limits: limits)
    } catch {
        fatalError("re-encoding or re-decoding a decoded value failed: \(error)")
    }
    return 0
}
