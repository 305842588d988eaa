/// The units a pattern matches a text by: Unicode scalars with the `u` flag, UTF-16 code units
/// without it (a scalar above U+FFFF becomes its surrogate pair).
struct TextUnits: Sequence {
    let text: String
    let unicode: Bool

    struct Iterator: IteratorProtocol {
        var scalars: String.UnicodeScalarView.Iterator
        let unicode: Bool
        var pendingLowSurrogate: UInt32?

        mutating func next() -> UInt32? {
            if let low = pendingLowSurrogate {
                pendingLowSurrogate = nil
                return low
            }
            guard let value = scalars.next()?.value else { return nil }
            if unicode || value < 0x10000 { return value }
            pendingLowSurrogate = 0xDC00 + ((value - 0x10000) & 0x3FF)
            return 0xD800 + ((value - 0x10000) >> 10)
        }
    }

    func makeIterator() -> Iterator {
        Iterator(scalars: text.unicodeScalars.makeIterator(), unicode: unicode)
    }
}
