/// A server's offers for a token-valued negotiation (content codings, charsets, language tags),
/// lower-cased into one byte buffer with a range per offer, so matching touches no reference
/// counts.
struct TokenTable: Sendable {
    var bytes: [UInt8] = []
    var ranges: [Range<Int>] = []

    init(_ tokens: [String]) {
        for token in tokens {
            let start = bytes.count
            bytes.append(contentsOf: token.utf8.map(ByteClass.lowercased))
            ranges.append(start..<bytes.count)
        }
    }

    var count: Int { ranges.count }

    func withUnsafeTable<R>(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<Range<Int>>) -> R) -> R {
        bytes.withUnsafeBufferPointer { bytes in ranges.withUnsafeBufferPointer { ranges in body(bytes, ranges) } }
    }
}
