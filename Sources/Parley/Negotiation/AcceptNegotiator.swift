/// Chooses among a fixed list of offers the one an `Accept` field prefers (RFC 9110 §12.5.1).
///
/// The offers are parsed once, when the negotiator is created; each negotiation scans the
/// header once, in place, and allocates nothing on the heap for ordinary headers.
///
/// ```swift
/// let negotiator = AcceptNegotiator(offers: ["application/json", "application/yaml"])
/// negotiator.preferredOffer(forAccept: "application/yaml, application/json;q=0.9")
/// // application/yaml
/// ```
///
/// The rules, in order:
/// - No field, or a field of only empty elements: every offer is acceptable; the first wins.
///   A field whose elements are all invalid accepts nothing.
/// - Elements split on commas outside quoted strings; an invalid element is skipped.
///   A bare `*` reads as `*/*`; `q=.5` and q-values with more than three decimals are read as
///   the numbers they are; a q outside 0…1, not a number, quoted, or given twice skips the element.
/// - A range matches an offer when type and subtype are equal or `*` and every range parameter
///   is on the offer with an equal value (`q` is the weight wherever it appears).
/// - An offer takes the q of its most specific matching range (concrete type, then concrete
///   subtype, then parameter count); q=0 or no match means not acceptable.
/// - Highest q wins; on equal q the offer matched by the more specific range; then offer order.
public struct AcceptNegotiator: Sendable {
    /// The offers, in preference order.
    public let offers: [MediaType]
    let compiled: [CompiledOffer]

    struct CompiledOffer: Sendable {
        var type: [UInt8]
        var subtype: [UInt8]
        /// Names lower-cased; values as given (compared case-insensitively when `folds`).
        var parameters: [(name: [UInt8], value: [UInt8], folds: Bool)]
    }

    /// Creates a negotiator over `offers`, most preferred first.
    public init(offers: [MediaType]) {
        self.offers = offers
        self.compiled = offers.map { offer in
            CompiledOffer(type: Array(offer.type.utf8), subtype: Array(offer.subtype.utf8),
                          parameters: offer.parameters.map { (Array($0.name.utf8), Array($0.value.utf8), $0.isCaseInsensitive) })
        }
    }

    /// The index in ``offers`` of the offer `accept` prefers, or `nil` when none is acceptable.
    ///
    /// - Parameter accept: The `Accept` field value (several fields joined with `, `), or `nil`
    ///   when the request had none.
    /// - Complexity: O(*n* × *m*) for a header of *n* bytes and *m* offers.
    public func preferredOfferIndex(forAccept accept: String?) -> Int? {
        guard !offers.isEmpty else { return nil }
        guard var header = accept else { return 0 }
        return header.withUTF8 { preferredOfferIndex(forAcceptBytes: UnsafeRawBufferPointer($0)) }
    }

    /// The offer `accept` prefers, exactly as given, or `nil` when none is acceptable.
    public func preferredOffer(forAccept accept: String?) -> MediaType? {
        preferredOfferIndex(forAccept: accept).map { offers[$0] }
    }

    /// The index of the preferred offer for an `Accept` value given as bytes.
    public func preferredOfferIndex(forAcceptBytes raw: UnsafeRawBufferPointer) -> Int? {
        let count = compiled.count
        guard count > 0 else { return nil }
        return withUnsafeTemporaryAllocation(of: OfferScore.self, capacity: count) { scores in
            for k in 0..<count { scores.initializeElement(at: k, to: OfferScore()) }
            let header = raw.bindMemory(to: UInt8.self)
            var scanner = AcceptScanner(header)
            var sawValid = false
            var sawAny = false
            while let element = scanner.nextElement() {
                sawAny = true
                guard element.isValid else { continue }
                sawValid = true
                for k in 0..<count {
                    guard let specificity = matchSpecificity(element, compiled[k], header) else { continue }
                    if specificity > scores[k].specificity {
                        scores[k] = OfferScore(specificity: specificity, quality: element.quality)
                    }
                }
            }
            if !sawAny { return 0 }
            if !sawValid { return nil }
            var best: Int? = nil
            for k in 0..<count where scores[k].specificity >= 0 && scores[k].quality > 0 {
                guard let current = best else { best = k; continue }
                let a = scores[k], b = scores[current]
                if a.quality > b.quality || (a.quality == b.quality && a.specificity > b.specificity) {
                    best = k
                }
            }
            return best
        }
    }

    struct OfferScore {
        var specificity: Int = -1
        var quality: Double = 0
    }

    /// The specificity with which `element` matches `offer`, or `nil`.
    @inline(__always)
    func matchSpecificity(_ element: AcceptScanner.Element, _ offer: CompiledOffer,
                          _ header: UnsafeBufferPointer<UInt8>) -> Int? {
        var specificity = 0
        if !element.typeIsWildcard {
            guard equalsFolded(header, element.type, offer.type) else { return nil }
            specificity += 1 << 20
        }
        if !element.subtypeIsWildcard {
            guard equalsFolded(header, element.subtype, offer.subtype) else { return nil }
            specificity += 1 << 19
        }
        if element.parameterCount > 0 {
            var matched = true
            AcceptScanner.forEachParameter(header, element.parameters) { name, value, quoted in
                guard matched else { return }
                if name.count == 1 && (header[name.lowerBound] | 0x20) == UInt8(ascii: "q") { return }
                guard let parameter = offer.parameters.first(where: { equalsFolded(header, name, $0.name) }) else {
                    matched = false
                    return
                }
                if !AcceptScanner.valueEquals(header, value, quoted: quoted, parameter.value, folding: parameter.folds) {
                    matched = false
                }
            }
            guard matched else { return nil }
            specificity += element.parameterCount
        }
        return specificity
    }

    @inline(__always)
    func equalsFolded(_ header: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ lowercased: [UInt8]) -> Bool {
        guard range.count == lowercased.count else { return false }
        return lowercased.withUnsafeBufferPointer { expected in
            var j = 0
            for i in range {
                if ByteClass.lowercased(header[i]) != expected[j] { return false }
                j += 1
            }
            return true
        }
    }
}
