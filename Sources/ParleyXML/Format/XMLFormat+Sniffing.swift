public import Parley

extension XMLFormat {
    /// `application/xml` when the body opens with an XML declaration or a root element;
    /// `application/xhtml+xml` for an HTML page written as XML (an XML declaration or the XHTML
    /// namespace); `nil` for other HTML pages (`TextSniffing.looksLikeHTML(_:)`).
    public func sniff(_ bytes: UnsafeRawBufferPointer) -> MediaType? {
        guard let start = TextSniffing.firstSignificantByte(bytes), bytes[start] == UInt8(ascii: "<"),
              start + 1 < bytes.count else { return nil }
        if TextSniffing.looksLikeHTML(bytes) {
            let head = TextSniffing.lowercasedHead(bytes)
            return head.hasPrefix("<?xml") || head.contains("http://www.w3.org/1999/xhtml") ? "application/xhtml+xml" : nil
        }
        let next = bytes[start + 1]
        let opensMarkup = next == UInt8(ascii: "?") || next == UInt8(ascii: "!") || next == UInt8(ascii: "_")
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(next | 0x20) || next >= 0x80
        return opensMarkup ? "application/xml" : nil
    }
}
