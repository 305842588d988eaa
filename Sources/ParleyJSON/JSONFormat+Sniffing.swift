public import Parley

extension JSONFormat {
    /// `application/json` when the body's first and last significant bytes are `{`…`}` (with a
    /// string key or nothing inside first) or `[`…`]` (with a value opening inside first).
    public func sniff(_ bytes: UnsafeRawBufferPointer) -> MediaType? {
        guard let start = TextSniffing.firstSignificantByte(bytes), let end = TextSniffing.lastSignificantByte(bytes),
              end > start else { return nil }
        var next = start + 1
        while next < end, TextSniffing.isWhiteSpace(bytes[next]) { next += 1 }
        let inner = bytes[next]
        switch (bytes[start], bytes[end]) {
        case (UInt8(ascii: "{"), UInt8(ascii: "}")):
            return next == end || inner == UInt8(ascii: "\"") ? Self.applicationJSON : nil
        case (UInt8(ascii: "["), UInt8(ascii: "]")):
            let opensValue = inner == UInt8(ascii: "{") || inner == UInt8(ascii: "[") || inner == UInt8(ascii: "\"")
                || inner == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(inner)
            return next == end || opensValue ? Self.applicationJSON : nil
        default:
            return nil
        }
    }
}
