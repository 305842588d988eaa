import FuzzSupport
import Parley
import ParleyCBOR

let format = CBORFormat()
let deterministic = CBORFormat(options: .init(isDeterministic: true))

/// Arbitrary bytes as application/cbor and as a sequence: only a value or a FormatError, our own
/// output (preferred and deterministic) decodes again, and the sniffer never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    _ = format.sniff(bytes)
    if let value = fuzzDecodeAndRoundTrip(format, as: "application/cbor", bytes: bytes, mustEncode: true) {
        guard let encoded = try? deterministic.encode(value) else { fatalError("deterministic encoding failed") }
        var limits = fuzzLimits
        limits.maxBodyBytes = max(limits.maxBodyBytes, encoded.count)
        guard (try? deterministic.decode(encoded, limits: limits)) != nil else {
            fatalError("deterministic output did not decode")
        }
    }
    fuzzDecodeAndRoundTrip(format, as: "application/cbor-seq", bytes: bytes, mustEncode: true)
    return 0
}
