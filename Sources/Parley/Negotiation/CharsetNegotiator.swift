/// Chooses the charset of a textual response from the request's `Accept-Charset` field
/// (RFC 9110 §12.5.2) among the charsets a server can write.
///
/// Browsers stopped sending the field, but older clients and some APIs still do. The charsets
/// are lower-cased once, when the negotiator is created; each negotiation scans the header once,
/// in place, with the scanner and weight rules of `Accept`, and allocates nothing on the heap.
///
/// ```swift
/// let negotiator = CharsetNegotiator(charsets: ["utf-8", "iso-8859-1"])
/// negotiator.charset(forAcceptCharset: "iso-8859-1, utf-8;q=0.7")   // "iso-8859-1"
/// negotiator.charset(forAcceptCharset: "shift_jis")                 // nil: none acceptable
/// ```
///
/// The rules:
/// - A charset named in the field (any case; names are compared as written, so an alias such
///   as `latin1` only matches an offer spelled that way) takes the highest q of the elements
///   naming it; one not named takes the q of `*`, or is not acceptable when there is no `*`
///   (RFC 9110 dropped the old implicit `iso-8859-1`). q=0 means not acceptable.
/// - No field, or an empty one: the first offer.
/// - Highest q wins; on equal q, the server's order of ``charsets``.
/// - Elements that break the grammar are skipped; parameters other than `q` are ignored.
public struct CharsetNegotiator: Sendable {
    /// The charsets the server can write, as given, most preferred first.
    public let charsets: [String]
    let table: TokenTable

    /// Creates a negotiator over `charsets` (IANA names), most preferred first.
    public init(charsets: [String]) {
        self.charsets = charsets
        self.table = TokenTable(charsets)
    }

    /// The charset `acceptCharset` prefers, as given to ``init(charsets:)``, or `nil` when none
    /// is acceptable.
    ///
    /// - Parameter acceptCharset: The `Accept-Charset` field value (several fields joined with
    ///   `, `), or `nil` when the request had none.
    public func charset(forAcceptCharset acceptCharset: String?) -> String? {
        preferredCharsetIndex(forAcceptCharset: acceptCharset).map { charsets[$0] }
    }

    /// The index in ``charsets`` of the charset `acceptCharset` prefers, or `nil`.
    ///
    /// - Complexity: O(*n* × *m*) for a header of *n* bytes and *m* charsets.
    public func preferredCharsetIndex(forAcceptCharset acceptCharset: String?) -> Int? {
        guard !charsets.isEmpty else { return nil }
        guard var header = acceptCharset else { return 0 }
        return header.withUTF8 { preferredCharsetIndex(forAcceptCharsetBytes: UnsafeRawBufferPointer($0)) }
    }

    /// The index of the preferred charset for an `Accept-Charset` value given as bytes.
    public func preferredCharsetIndex(forAcceptCharsetBytes raw: UnsafeRawBufferPointer) -> Int? {
        let count = table.count
        guard count > 0 else { return nil }
        return table.withUnsafeTable { bytes, offers in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: count) { named in
                for k in 0..<count { named.initializeElement(at: k, to: -1) }
                let header = raw.bindMemory(to: UInt8.self)
                var scanner = AcceptScanner(header)
                var star = -1.0
                var sawAny = false
                while let element = scanner.nextTokenElement() {
                    sawAny = true
                    guard element.isValid else { continue }
                    if element.typeIsWildcard {
                        star = max(star, element.quality)
                        continue
                    }
                    for k in 0..<count where AcceptNegotiator.equalsFolded(header, element.type, bytes, offers[k]) {
                        named[k] = max(named[k], element.quality)
                    }
                }
                if !sawAny { return 0 }
                var best: Int? = nil
                var bestQuality = 0.0
                for k in 0..<count {
                    let q = named[k] >= 0 ? named[k] : max(star, 0)
                    if q > bestQuality {
                        best = k
                        bestQuality = q
                    }
                }
                return best
            }
        }
    }
}
