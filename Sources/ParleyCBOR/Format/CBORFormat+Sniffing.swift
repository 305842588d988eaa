public import Parley

extension CBORFormat {
    /// `application/cbor` when the body opens with the self-describe tag (`D9 D9 F7`, RFC 8949
    /// §3.4.6), or when it opens with an array, map or tag head and its first item is
    /// well-formed: complete and the whole body, or still well-formed after
    /// ``sniffedHeadLimit`` heads. Text never opens that way (those bytes are not ASCII, and
    /// in UTF-8 only lead bytes of Latin, Greek, Cyrillic, Hebrew and Arabic letters, which
    /// rarely make a well-formed item), so JSON, YAML, XML and CSV bodies are not mistaken for CBOR.
    public func sniff(_ bytes: UnsafeRawBufferPointer) -> MediaType? {
        if TextSniffing.bytes(bytes, startWith: [0xD9, 0xD9, 0xF7]) { return Self.applicationCBOR }
        guard let first = bytes.first, (0x80...0xDB).contains(first) else { return nil }
        var sniffer = CBORSniffer(bytes.bindMemory(to: UInt8.self))
        return sniffer.firstItemIsWellFormed(maxHeads: Self.sniffedHeadLimit) ? Self.applicationCBOR : nil
    }

    /// How many heads sniffing reads at most.
    public static let sniffedHeadLimit = 256
}
