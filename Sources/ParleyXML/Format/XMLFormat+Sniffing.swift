public import Parley

extension XMLFormat {
    /// `application/xml` when the body opens with an XML declaration; `application/xhtml+xml` for
    /// an HTML page written as XML (an XML declaration or the XHTML namespace); `nil` otherwise: a
    /// bare root element could as well be an HTML fragment (`<a href=…>Moved</a>`).
    public func sniff(_ bytes: UnsafeRawBufferPointer) -> MediaType? {
        guard let start = TextSniffing.firstSignificantByte(bytes), bytes[start] == UInt8(ascii: "<"),
              start + 1 < bytes.count else { return nil }
        let head = TextSniffing.lowercasedHead(bytes)
        if TextSniffing.looksLikeHTML(lowercasedHead: head) {
            return head.hasPrefix("<?xml") || head.contains("http://www.w3.org/1999/xhtml")
                ? "application/xhtml+xml" : nil
        }
        return TextSniffing.bytes(bytes, startWith: "<?xml".utf8, at: start) ? "application/xml" : nil
    }
}
