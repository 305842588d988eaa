extension AcceptNegotiator {
    /// The lowest non-zero q-value among the valid elements of `accept`, read by the same
    /// scanner negotiation uses, or `nil` when no valid element has one above 0.
    ///
    /// A proxy that adds ranges of its own to a client's `Accept` goes below this, so the
    /// client's preferences still come first (`text/html, application/xml;q=0.9` → 0.9).
    public static func lowestQuality(inAccept accept: String) -> Double? {
        var accept = accept
        return accept.withUTF8 { bytes in
            var scanner = AcceptScanner(bytes)
            var lowest: Double?
            while let element = scanner.nextElement() {
                guard element.isValid, element.quality > 0 else { continue }
                lowest = min(lowest ?? element.quality, element.quality)
            }
            return lowest
        }
    }
}
