extension CharsetNegotiator {
    /// The index of the charset `acceptCharset` prefers or, when it accepts none of them, of the
    /// first charset it does not exclude: one the field names with `q=0`, or any it does not name
    /// when it holds `*;q=0`. `nil` when every charset is excluded.
    ///
    /// A server may disregard `Accept-Charset` when nothing is acceptable (RFC 9110 §12.5.2), but
    /// not in favour of a charset the client refused: with `Accept-Charset: utf-8;q=0` and
    /// `["utf-8", "iso-8859-1"]` this is ISO 8859-1's index, never UTF-8's.
    ///
    /// - Parameter acceptCharset: The `Accept-Charset` field value, or `nil`.
    public func unexcludedCharsetIndex(forAcceptCharset acceptCharset: String?) -> Int? {
        if let index = preferredCharsetIndex(forAcceptCharset: acceptCharset) { return index }
        guard let acceptCharset, !acceptCharset.contains("*") else { return nil }
        // Charsets the field does not name become acceptable at the lowest weight; named q=0 stay out.
        return preferredCharsetIndex(forAcceptCharset: acceptCharset + ", *;q=0.001")
    }
}
