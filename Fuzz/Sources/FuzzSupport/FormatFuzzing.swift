public import Parley

/// The limits every value-format fuzz target decodes with: small enough that a run never waits
/// on one huge input.
public let fuzzLimits = DecodingLimits(maxBodyBytes: 1 << 20, maxDepth: 64, maxNodes: 100_000)

/// The property every value format must keep on arbitrary bytes: decoding yields a value or a
/// `FormatError` (anything else traps), and a decoded value that encodes decodes again.
///
/// - Parameters:
///   - mustEncode: Whether every decoded value must encode too (formats whose value space
///     covers the whole tree, such as MessagePack).
/// - Returns: The decoded value, for target-specific checks.
@discardableResult
public func fuzzDecodeAndRoundTrip(_ format: some Format, as mediaType: MediaType, bytes: UnsafeRawBufferPointer,
                                   limits: DecodingLimits = fuzzLimits, mustEncode: Bool = false) -> Value? {
    let value: Value
    do {
        value = try format.decode(bytes, context: DecodingContext(mediaType: mediaType, limits: limits))
    } catch is FormatError {
        return nil
    } catch {
        fatalError("decode threw \(type(of: error)), not FormatError: \(error)")
    }
    let encoded: [UInt8]
    do {
        encoded = try format.encode(value, as: mediaType)
    } catch {
        if mustEncode { fatalError("a decoded value did not encode: \(error)") }
        return value
    }
    // Our output may be larger than the input (YAML aliases are written out in full, within the
    // expansion limit the decode enforced), so only the body-size limit grows to fit it.
    var limitsForOutput = limits
    limitsForOutput.maxBodyBytes = max(limits.maxBodyBytes, encoded.count)
    do {
        _ = try format.decode(encoded, as: mediaType, limits: limitsForOutput)
    } catch {
        fatalError("re-decoding our own output failed: \(error)")
    }
    return value
}
