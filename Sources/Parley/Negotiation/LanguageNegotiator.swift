/// Chooses the language of a response from the request's `Accept-Language` field
/// (RFC 9110 §12.5.4) among the languages a server has, with the matching schemes of RFC 4647.
///
/// The language tags (BCP 47) are lower-cased once, when the negotiator is created; each
/// negotiation scans the header once, in place, with the scanner and weight rules of `Accept`,
/// and allocates nothing on the heap.
///
/// ```swift
/// let negotiator = LanguageNegotiator(languages: ["en", "de", "fr-CA"])
/// negotiator.language(forAcceptLanguage: "en-GB,en;q=0.9,de;q=0.8")   // "en"
/// negotiator.language(forAcceptLanguage: "fr")                          // "fr-CA"
/// negotiator.language(forAcceptLanguage: "ja")                          // "en", the default
/// ```
///
/// The rules:
/// - **Basic filtering** (RFC 4647 §3.3.1): a language range matches a tag that equals it, or
///   that starts with it followed by `-` (`en` matches `en-GB`), ignoring case; `*` matches
///   every tag. An offered tag takes the q of its longest matching range (the highest q among
///   equal ranges); q=0 excludes it (`*, de;q=0`).
/// - **Lookup** (RFC 4647 §3.4), for tags no range filters to: a range matches a tag that it
///   truncates to at a `-` (`en-GB` finds `en`; a trailing single-letter subtag is never the end
///   of a truncation). It ranks below a filtering match and above `*`, and never revives a tag
///   a range excluded with q=0. The longest truncation wins, as lookup finds it first.
/// - Highest q wins; on equal q, a tag a named range matched beats one only `*` matched, then
///   the tag matched by the range listed first in the field, then an exact match beats a prefix
///   and a prefix beats lookup (`en` prefers an offered `en` to `en-US`), and a longer truncation
///   beats a shorter one; then the server's order.
/// - No field, an empty one, or nothing acceptable: `nil` from ``preferredLanguageIndex(forAcceptLanguage:)``,
///   the default language from ``language(forAcceptLanguage:)``.
/// - Elements that break the grammar are skipped; parameters other than `q` are ignored.
public struct LanguageNegotiator: Sendable {
    /// The languages the server has, as given, most preferred first.
    public let languages: [String]
    /// The language answered when the field accepts none of ``languages`` or there is no field.
    public let defaultLanguage: String?
    let table: TokenTable

    /// Creates a negotiator.
    ///
    /// - Parameters:
    ///   - languages: The language tags the server has, most preferred first.
    ///   - defaultLanguage: The language to answer when none is acceptable; `nil` takes the
    ///     first of `languages`.
    public init(languages: [String], defaultLanguage: String? = nil) {
        self.languages = languages
        self.defaultLanguage = defaultLanguage ?? languages.first
        self.table = TokenTable(languages)
    }

    /// The language `acceptLanguage` prefers, or ``defaultLanguage``.
    ///
    /// - Parameter acceptLanguage: The `Accept-Language` field value (several fields joined
    ///   with `, `), or `nil` when the request had none.
    public func language(forAcceptLanguage acceptLanguage: String?) -> String? {
        preferredLanguageIndex(forAcceptLanguage: acceptLanguage).map { languages[$0] } ?? defaultLanguage
    }

    /// The index in ``languages`` of the language `acceptLanguage` prefers, or `nil` when the
    /// field is absent or empty or accepts none of them.
    ///
    /// - Complexity: O(*n* × *m*) for a header of *n* bytes and *m* languages.
    public func preferredLanguageIndex(forAcceptLanguage acceptLanguage: String?) -> Int? {
        guard var header = acceptLanguage, !languages.isEmpty else { return nil }
        return header.withUTF8 { preferredLanguageIndex(forAcceptLanguageBytes: UnsafeRawBufferPointer($0)) }
    }

    /// The index of the preferred language for an `Accept-Language` value given as bytes.
    public func preferredLanguageIndex(forAcceptLanguageBytes raw: UnsafeRawBufferPointer) -> Int? {
        let count = table.count
        guard count > 0 else { return nil }
        return table.withUnsafeTable { bytes, tags in
            withUnsafeTemporaryAllocation(of: Score.self, capacity: count) { scores in
                for k in 0..<count { scores.initializeElement(at: k, to: Score()) }
                let header = raw.bindMemory(to: UInt8.self)
                var scanner = AcceptScanner(header)
                var position = 0
                while let element = scanner.nextTokenElement() {
                    guard element.isValid else { continue }
                    position += 1
                    for k in 0..<count {
                        let specificity: Int
                        let match: Match
                        if element.typeIsWildcard {
                            specificity = 0
                            match = .any
                        } else if Self.filters(header, element.type, bytes, tags[k]) {
                            specificity = Self.filteringSpecificity + element.type.count
                            match = element.type.count == tags[k].count ? .exact : .prefix
                        } else if element.quality > 0, Self.truncates(header, element.type, bytes, tags[k]) {
                            // The longest truncation is the one lookup finds first.
                            specificity = 1 + tags[k].count
                            match = .lookup
                        } else {
                            continue
                        }
                        let score = Score(
                            specificity: specificity, match: match, quality: element.quality, position: position)
                        if score.outranks(scores[k]) { scores[k] = score }
                    }
                }
                var best: Int? = nil
                for k in 0..<count where scores[k].specificity >= 0 && scores[k].quality > 0 {
                    guard let current = best else { best = k; continue }
                    if scores[k].isPreferred(over: scores[current]) { best = k }
                }
                return best
            }
        }
    }

    /// How a range matched a tag, weakest first.
    enum Match: Int, Comparable {
        case any, lookup, prefix, exact
        static func < (a: Match, b: Match) -> Bool { a.rawValue < b.rawValue }
    }

    struct Score {
        /// -1 no match, 0 `*`, 1 + the tag's length for lookup, ``filteringSpecificity`` + the
        /// range's length for filtering.
        var specificity = -1
        var match = Match.any
        var quality = 0.0
        /// The position in the field of the range that decided, from 1.
        var position = 0

        /// Whether this match decides a tag's q instead of `other`: more specific, or as
        /// specific with a higher q.
        func outranks(_ other: Score) -> Bool {
            specificity > other.specificity || (specificity == other.specificity && quality > other.quality)
        }

        /// Whether a tag with this score is preferred to one with `other`: higher q; a named
        /// range over `*`; the range listed first; an exact match over a prefix, a prefix over
        /// lookup; the longer truncation. The server's order breaks the remaining ties.
        func isPreferred(over other: Score) -> Bool {
            if quality != other.quality { return quality > other.quality }
            if (match == .any) != (other.match == .any) { return other.match == .any }
            if position != other.position { return position < other.position }
            if match != other.match { return match > other.match }
            return specificity > other.specificity   // the longer truncation
        }
    }

    /// Above every lookup match (a tag is far shorter than this).
    static let filteringSpecificity = 1 << 30

    /// Basic filtering: the range equals the tag or is a prefix of it ending at a `-`.
    static func filters(_ header: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                        _ bytes: UnsafeBufferPointer<UInt8>, _ tag: Range<Int>) -> Bool {
        guard range.count <= tag.count else { return false }
        guard AcceptNegotiator.equalsFolded(header, range, bytes, tag.lowerBound..<tag.lowerBound + range.count)
        else { return false }
        return range.count == tag.count || bytes[tag.lowerBound + range.count] == UInt8(ascii: "-")
    }

    /// Lookup: the tag is the range truncated at a `-`, and does not end with a single-character
    /// subtag (RFC 4647 §3.4 removes those while truncating).
    static func truncates(_ header: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                          _ bytes: UnsafeBufferPointer<UInt8>, _ tag: Range<Int>) -> Bool {
        guard tag.count < range.count, header[range.lowerBound + tag.count] == UInt8(ascii: "-"),
              AcceptNegotiator.equalsFolded(header, range.lowerBound..<range.lowerBound + tag.count, bytes, tag)
        else { return false }
        return !(tag.count >= 2 && bytes[tag.upperBound - 2] == UInt8(ascii: "-"))
    }
}
