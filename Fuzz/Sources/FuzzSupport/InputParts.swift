/// A fuzz input read as its first byte (flags the target reads) and the rest split at its first NUL
/// byte (the second part is empty when there is none); `nil` for an empty input.
public func fuzzParts(_ bytes: UnsafeRawBufferPointer)
    -> (flags: UInt8, first: UnsafeRawBufferPointer, second: UnsafeRawBufferPointer)? {
    guard let flags = bytes.first else { return nil }
    let rest = bytes.dropFirst()
    let split = rest.firstIndex(of: 0) ?? rest.endIndex
    return (flags, UnsafeRawBufferPointer(rebasing: rest[..<split]),
            UnsafeRawBufferPointer(rebasing: rest[min(split + 1, rest.endIndex)...]))
}
