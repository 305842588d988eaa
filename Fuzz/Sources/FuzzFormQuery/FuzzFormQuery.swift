import Parley

let limits = DecodingLimits(maxBodyBytes: 1 << 20, maxDepth: 32, maxNodes: 100_000)

/// Arbitrary bytes as a form body or URL query: the first byte picks the options (nesting,
/// comma splitting, `+` as space), the rest is decoded. Only a value or a FormatError may come
/// out, and encoding the value back as a query does not trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard let options = bytes.first else { return 0 }
    let decoder = FormDecoder(nesting: options & 1 == 0 ? .brackets : .dotted, splitsCommas: options & 2 != 0,
                              plusAsSpace: options & 4 == 0, limits: limits)
    let value: Value
    do {
        value = try decoder.decode(Array(bytes.dropFirst()))
    } catch is FormatError {
        return 0
    } catch {
        fatalError("decode threw \(type(of: error)), not FormatError: \(error)")
    }
    // Encoding back may refuse a value (the encoder has its own rules); it must not trap.
    _ = try? QueryEncoder(nesting: decoder.nesting).encode(value)
    return 0
}
