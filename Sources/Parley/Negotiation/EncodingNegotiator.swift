/// Chooses the content coding of a response from the request's `Accept-Encoding` field
/// (RFC 9110 §12.5.3) among the codings a server can apply.
///
/// The codings are lower-cased once, when the negotiator is created; each negotiation scans the
/// header once, in place, with the scanner and weight rules of `Accept`
/// (see <doc:NegotiationRules>), and allocates nothing on the heap.
///
/// ```swift
/// let negotiator = EncodingNegotiator(codings: ["br", "gzip"])
/// negotiator.preferredCoding(forAcceptEncoding: "gzip, deflate, br, zstd")   // "br"
/// negotiator.preferredCoding(forAcceptEncoding: "gzip;q=0.5, br;q=0.1")      // "gzip"
/// negotiator.preferredCoding(forAcceptEncoding: "")                          // "identity"
/// negotiator.preferredCoding(forAcceptEncoding: "br;q=0, identity;q=0")     // nil: 406
/// ```
///
/// The rules:
/// - A coding named in the field takes the highest q of the elements naming it (any case;
///   `x-gzip` and `x-compress` name `gzip` and `compress`, RFC 9110 §8.4.1); a coding not named
///   takes the q of `*`, or is not acceptable when there is no `*`. q=0 means not acceptable.
/// - `identity` (no coding) is acceptable unless `identity;q=0`, or `*;q=0` without an
///   `identity` element, excludes it; when the field does not name it, it ranks below every
///   coding the field accepts.
/// - No field: `identity`. RFC 9110 lets a server pick any coding then, but clients that send
///   no `Accept-Encoding` (scripts, `curl` without `--compressed`) often cannot decode one;
///   jshttp/negotiator, nginx and Apache answer them uncompressed too.
/// - An empty field (or one of only empty elements): `identity` only.
/// - Elements that break the grammar are skipped; parameters other than `q` are ignored.
/// - Highest q wins; on equal q, a coding the field names beats one only `*` accepts, then the
///   server's order of ``codings``; a coding wins a tie with `identity`.
/// - `nil` only when nothing is acceptable, `identity` included: answer 406.
public struct EncodingNegotiator: Sendable {
    /// What a negotiation chose.
    public enum Choice: Sendable, Hashable {
        /// No content coding.
        case identity
        /// The coding at this index of ``EncodingNegotiator/codings``.
        case coding(Int)
    }

    /// The token of the identity coding, `"identity"`.
    public static let identity = "identity"

    /// The codings the server can apply, lower-cased, most preferred first (`identity` and `*`
    /// are left out: identity is always available).
    public let codings: [String]
    let table: TokenTable

    /// Creates a negotiator over `codings` (content-coding tokens), most preferred first.
    public init(codings: [String]) {
        var kept: [String] = []
        for coding in codings.map({ $0.lowercased() })
        where coding != Self.identity && coding != "*" && !kept.contains(coding) {
            kept.append(coding)
        }
        self.codings = kept
        self.table = TokenTable(kept)
    }

    /// The coding `acceptEncoding` prefers, `"identity"` for none, or `nil` when nothing is
    /// acceptable.
    ///
    /// - Parameters:
    ///   - acceptEncoding: The `Accept-Encoding` field value (several fields joined with `, `),
    ///     or `nil` when the request had none.
    ///   - preferringIdentity: Answer `identity` whenever it is acceptable, and a coding only
    ///     when it is not (a body too small to be worth compressing).
    public func preferredCoding(
        forAcceptEncoding acceptEncoding: String?, preferringIdentity: Bool = false
    ) -> String? {
        switch choice(forAcceptEncoding: acceptEncoding, preferringIdentity: preferringIdentity) {
        case .identity: Self.identity
        case .coding(let index): codings[index]
        case nil: nil
        }
    }

    /// What `acceptEncoding` prefers, or `nil` when nothing is acceptable.
    ///
    /// - Complexity: O(*n* × *m*) for a header of *n* bytes and *m* codings.
    public func choice(forAcceptEncoding acceptEncoding: String?, preferringIdentity: Bool = false) -> Choice? {
        guard var header = acceptEncoding else { return .identity }
        return header.withUTF8 {
            choice(forAcceptEncodingBytes: UnsafeRawBufferPointer($0), preferringIdentity: preferringIdentity)
        }
    }

    /// What an `Accept-Encoding` value given as bytes prefers, or `nil` when nothing is acceptable.
    public func choice(
        forAcceptEncodingBytes raw: UnsafeRawBufferPointer, preferringIdentity: Bool = false
    ) -> Choice? {
        let count = table.count
        return table.withUnsafeTable { bytes, offers in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: max(count, 1)) { named in
                for k in 0..<count { named.initializeElement(at: k, to: -1) }
                let header = raw.bindMemory(to: UInt8.self)
                var scanner = AcceptScanner(header)
                var star = -1.0
                var identity = -1.0
                var sawAny = false
                while let element = scanner.nextTokenElement() {
                    sawAny = true
                    guard element.isValid else { continue }
                    let q = element.quality
                    if element.typeIsWildcard {
                        star = max(star, q)
                        continue
                    }
                    let token = Self.canonicalToken(header, element.type)
                    if Self.equalsIdentity(header, token) {
                        identity = max(identity, q)
                        continue
                    }
                    for k in 0..<count where AcceptNegotiator.equalsFolded(header, token, bytes, offers[k]) {
                        named[k] = max(named[k], q)
                    }
                }
                // An empty field means identity only.
                if !sawAny { return .identity }
                // Not named: `*` decides; identity is acceptable by default, below any coding.
                let identityQuality = identity >= 0 ? identity : star >= 0 ? star : Double.leastNonzeroMagnitude
                if preferringIdentity && identityQuality > 0 { return .identity }
                // On equal q a coding the field names beats one only `*` accepts, as a more
                // specific range does in `Accept`; then the server's order.
                var best = -1
                var bestQuality = 0.0
                var bestIsNamed = false
                for k in 0..<count {
                    let isNamed = named[k] >= 0
                    let q = isNamed ? named[k] : max(star, 0)
                    if q > bestQuality || (q > 0 && q == bestQuality && isNamed && !bestIsNamed) {
                        best = k
                        bestQuality = q
                        bestIsNamed = isNamed
                    }
                }
                if best >= 0 && bestQuality >= identityQuality { return .coding(best) }
                return identityQuality > 0 ? .identity : nil
            }
        }
    }

    /// `x-gzip` and `x-compress` as `gzip` and `compress` (RFC 9110 §8.4.1.1, §8.4.1.3).
    static func canonicalToken(_ header: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        guard range.count == 6 || range.count == 10,
              ByteClass.lowercased(header[range.lowerBound]) == UInt8(ascii: "x"),
              header[range.lowerBound + 1] == UInt8(ascii: "-") else { return range }
        let rest = range.lowerBound + 2..<range.upperBound
        return equalsFolded(header, rest, "gzip") || equalsFolded(header, rest, "compress") ? rest : range
    }

    static func equalsIdentity(_ header: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        equalsFolded(header, range, "identity")
    }

    /// Whether the header bytes in `range` equal the lower-case ASCII `text`, ignoring case.
    static func equalsFolded(_ header: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        let expected = text.utf8Start
        var j = 0
        for i in range {
            if ByteClass.lowercased(header[i]) != expected[j] { return false }
            j += 1
        }
        return true
    }
}
