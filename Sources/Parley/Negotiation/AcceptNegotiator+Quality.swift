extension AcceptNegotiator {
    /// The lowest non-zero q-value among the valid elements of `accept`, read by the same
    /// scanner negotiation uses, or `nil` when no valid element has one above 0
    /// (``AcceptField/lowestQuality``).
    ///
    /// A proxy that adds ranges of its own to a client's `Accept` goes below this, so the
    /// client's preferences still come first (`text/html, application/xml;q=0.9` → 0.9).
    public static func lowestQuality(inAccept accept: String) -> Double? {
        AcceptField(accept).lowestQuality
    }

    /// Whether `accept` has elements and not one of them is a valid media range, read by the
    /// scanner negotiation uses (RFC 9110 §12.5.1): such a field cannot mean anything, where an
    /// empty field means "anything" and one valid element among invalid ones is still heard
    /// (``AcceptField/isMalformed``).
    public static func hasOnlyInvalidElements(_ accept: String) -> Bool {
        AcceptField(accept).isMalformed
    }
}
