public import Parley

extension PropertyListFormat {
    /// `application/x-bplist` for the `bplist00` signature; `application/x-plist` for XML that
    /// declares the plist doctype or opens a `plist` root element.
    public func sniff(_ bytes: UnsafeRawBufferPointer) -> MediaType? {
        if TextSniffing.bytes(bytes, startWith: "bplist0".utf8) { return "application/x-bplist" }
        guard let start = TextSniffing.firstSignificantByte(bytes), bytes[start] == UInt8(ascii: "<") else {
            return nil
        }
        let head = TextSniffing.lowercasedHead(bytes)
        return head.contains("<!doctype plist") || head.contains("<plist") ? "application/x-plist" : nil
    }
}
