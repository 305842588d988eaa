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
///   subtype, then parameter count); among equally specific matching ranges, the highest q.
///   q=0 or no match means not acceptable.
/// - Highest q wins; on equal q the offer matched by the more specific range; then offer order.
public struct AcceptNegotiator: Sendable {
    /// The offers, in preference order.
    public let offers: [MediaType]
    let table: OfferTable

    /// Creates a negotiator over `offers`, most preferred first.
    public init(offers: [MediaType]) {
        self.offers = offers
        self.table = OfferTable(offers)
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

    /// The index in ``offers`` of the offer a scanned `Accept` field prefers, or `nil` when none
    /// is acceptable (or the field ``AcceptField/isMalformed``). Reads no text: `accept` was
    /// scanned when it was made, so one field negotiates against many offer lists cheaply.
    ///
    /// - Complexity: O(*r* × *m*) for *r* media ranges and *m* offers.
    public func preferredOfferIndex(for accept: AcceptField) -> Int? {
        guard !offers.isEmpty, !accept.isMalformed else { return nil }
        return accept.bytes.withUnsafeBufferPointer { header in
            accept.ranges.withUnsafeBufferPointer { elements in
                preferredOfferIndex(header: header, elements: StoredAcceptElements(elements: elements))
            }
        }
    }

    /// The offer a scanned `Accept` field prefers, exactly as given, or `nil` when none is acceptable.
    public func preferredOffer(for accept: AcceptField) -> MediaType? {
        preferredOfferIndex(for: accept).map { offers[$0] }
    }

    /// The index of the preferred offer for an `Accept` value given as bytes.
    public func preferredOfferIndex(forAcceptBytes raw: UnsafeRawBufferPointer) -> Int? {
        guard !offers.isEmpty else { return nil }
        let header = raw.bindMemory(to: UInt8.self)
        return preferredOfferIndex(header: header, elements: AcceptScanner(header))
    }

    /// Scores every offer against the elements `source` yields (ranges into `header`): the one
    /// negotiation both the text and the ``AcceptField`` forms run.
    private func preferredOfferIndex<Source: AcceptElementSource>(header: UnsafeBufferPointer<UInt8>,
                                                                  elements source: Source) -> Int? {
        let count = table.offers.count
        guard count > 0 else { return nil }
        var source = source
        return table.withUnsafeTables { bytes, offers, parameters, groups, members in
            withUnsafeTemporaryAllocation(of: OfferScore.self, capacity: count) { scores in
                for k in 0..<count { scores.initializeElement(at: k, to: OfferScore()) }
                var sawValid = false
                var sawAny = false
                while let element = source.nextElement() {
                    sawAny = true
                    guard element.isValid else { continue }
                    sawValid = true
                    // Candidates: every offer for `*`, else the offers of the one matching type.
                    var candidates = 0..<count
                    var viaMembers = false
                    if !element.typeIsWildcard {
                        guard
                            let group = groups.firstIndex(where: {
                                Self.equalsFolded(header, element.type, bytes, $0.type)
                            })
                        else { continue }
                        candidates = groups[group].members
                        viaMembers = true
                    }
                    for c in candidates {
                        let k = viaMembers ? members[c] : c
                        guard let specificity = Self.matchSpecificity(element, offers[k], parameters, bytes, header)
                        else { continue }
                        // A more specific range decides; among equally specific ones, the highest q.
                        let score = OfferScore(specificity: specificity, quality: element.quality)
                        if score.outranks(scores[k]) { scores[k] = score }
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
    }

    struct OfferScore {
        var specificity: Int = -1
        var quality: Double = 0

        /// Whether this match replaces `other` for the same offer: it is more specific, or
        /// as specific with a higher q.
        func outranks(_ other: OfferScore) -> Bool {
            specificity > other.specificity || (specificity == other.specificity && quality > other.quality)
        }
    }

    /// The specificity with which `element` matches `offer`, or `nil`: concrete type, then
    /// concrete subtype, then the number of parameters.
    @inline(__always)
    static func matchSpecificity(_ element: AcceptScanner.Element, _ offer: OfferTable.Offer,
                                 _ parameters: UnsafeBufferPointer<OfferTable.Parameter>,
                                 _ bytes: UnsafeBufferPointer<UInt8>,
                                 _ header: UnsafeBufferPointer<UInt8>) -> Int? {
        // The caller matched the type already (through the offer's type group).
        var specificity = element.typeIsWildcard ? 0 : 1 << 20
        if !element.subtypeIsWildcard {
            guard equalsFolded(header, element.subtype, bytes, offer.subtype) else { return nil }
            specificity += 1 << 19
        }
        if element.parameterCount > 0 {
            guard offerHasParameters(of: element, offer, parameters, bytes, header) else { return nil }
            specificity += element.parameterCount
        }
        return specificity
    }

    /// Whether every parameter of `element` other than `q` is on `offer` with an equal value.
    static func offerHasParameters(of element: AcceptScanner.Element, _ offer: OfferTable.Offer,
                                   _ parameters: UnsafeBufferPointer<OfferTable.Parameter>,
                                   _ bytes: UnsafeBufferPointer<UInt8>,
                                   _ header: UnsafeBufferPointer<UInt8>) -> Bool {
        // The element was validated when it was scanned; read its parameters again.
        var scanner = ParameterScanner(header, from: element.parameters.lowerBound, to: element.parameters.upperBound)
        while case .parameter(let parameter) = scanner.next() {
            if AcceptScanner.isQuality(header, parameter) { continue }
            guard
                let p = offer.parameters.first(where: {
                    equalsFolded(header, parameter.name, bytes, parameters[$0].name)
                }),
                ParameterScanner.valueEquals(
                    header, parameter, UnsafeBufferPointer(rebasing: bytes[parameters[p].value]),
                    folding: parameters[p].folds)
            else { return false }
        }
        return true
    }

    /// Whether the header bytes in `range` equal the lower-cased table bytes in `expected`,
    /// ignoring ASCII case.
    @inline(__always)
    static func equalsFolded(_ header: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                             _ bytes: UnsafeBufferPointer<UInt8>, _ expected: Range<Int>) -> Bool {
        guard range.count == expected.count else { return false }
        var j = expected.lowerBound
        for i in range {
            // Headers are nearly always lower-case already: fold only a byte that differs.
            let byte = header[i]
            if byte != bytes[j] && ByteClass.lowercased(byte) != bytes[j] { return false }
            j += 1
        }
        return true
    }
}

/// The offers of an ``AcceptNegotiator`` flattened into one byte buffer and two tables of
/// plain ranges, so matching touches no reference counts.
struct OfferTable: Sendable {
    struct Offer: Sendable {
        var type: Range<Int>
        var subtype: Range<Int>
        /// Indices into ``OfferTable/parameters``.
        var parameters: Range<Int>
    }

    struct Parameter: Sendable {
        /// Lower-cased.
        var name: Range<Int>
        var value: Range<Int>
        /// Compare the value case-insensitively (`charset`).
        var folds: Bool
    }

    /// Offers sharing a type, so an element's type is compared once per distinct type.
    struct Group: Sendable {
        var type: Range<Int>
        /// Indices into ``OfferTable/members``.
        var members: Range<Int>
    }

    var bytes: [UInt8] = []
    var offers: [Offer] = []
    var parameters: [Parameter] = []
    var groups: [Group] = []
    /// Offer indices, grouped by type, in offer order within each group.
    var members: [Int] = []

    init(_ mediaTypes: [MediaType]) {
        func append(_ text: String) -> Range<Int> {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            return start..<bytes.count
        }
        for type in mediaTypes {
            let typeRange = append(type.type)
            let subtypeRange = append(type.subtype)
            let first = parameters.count
            for parameter in type.parameters {
                parameters.append(Parameter(name: append(parameter.name), value: append(parameter.value),
                                            folds: parameter.isCaseInsensitive))
            }
            offers.append(Offer(type: typeRange, subtype: subtypeRange, parameters: first..<parameters.count))
        }
        var seenTypes: [String] = []
        for type in mediaTypes.map(\.type) where !seenTypes.contains(type) { seenTypes.append(type) }
        for type in seenTypes {
            let first = members.count
            members += mediaTypes.indices.filter { mediaTypes[$0].type == type }
            let offer = offers[members[first]]
            groups.append(Group(type: offer.type, members: first..<members.count))
        }
    }

    func withUnsafeTables<R>(
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<Offer>, UnsafeBufferPointer<Parameter>,
                 UnsafeBufferPointer<Group>, UnsafeBufferPointer<Int>) -> R
    ) -> R {
        bytes.withUnsafeBufferPointer { bytes in
            offers.withUnsafeBufferPointer { offers in
                parameters.withUnsafeBufferPointer { parameters in
                    groups.withUnsafeBufferPointer { groups in
                        members.withUnsafeBufferPointer { members in body(bytes, offers, parameters, groups, members) }
                    }
                }
            }
        }
    }
}
