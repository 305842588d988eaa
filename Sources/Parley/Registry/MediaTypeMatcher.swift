/// Matches a `Content-Type` against a list of registered media types by DESIGN's rules, with
/// lookup tables built once: exact type/subtype (more matching registered parameters first) >
/// `type/*+suffix` > the suffix's base type (`+json` → `application/json`) > `type/*` > `*/*`,
/// ties by registration order.
///
/// ``Registry`` matches decoders with one; `ResponseValidator` (ParleyHTTP) checks acceptable content
/// types with another, built once from its list.
///
/// ```swift
/// let matcher = MediaTypeMatcher(["application/json", "text/*"])
/// matcher.match("application/problem+json")?.registered   // application/json (suffix base type)
/// matcher.match("image/png")                              // nil
/// ```
public struct MediaTypeMatcher: Sendable {
    /// A successful match.
    public struct Match: Sendable {
        /// The registered type (or range) that matched.
        public let registered: MediaType
        /// The owner given with the registered type (its position, unless told otherwise).
        public let owner: Int
        /// How the match was made.
        public let rank: Registry.MatchRank
    }

    struct Entry: Sendable {
        var owner: Int
        var type: MediaType
    }

    /// The registered types with their owners, in registration order.
    public let registeredTypes: [(type: MediaType, owner: Int)]
    /// Subtype → entries of every type with that subtype (a short list: `application/xml`,
    /// `text/xml`), most registered parameters first, then registration order. Keyed by the
    /// subtype alone, a lookup hashes one string and compares the type in the list.
    private var exact: [String: [Entry]] = [:]
    /// ``exact`` as a list, when it has at most ``scannedSubtypes`` subtypes (an operation's
    /// declared types, a small registry): comparing a few strings costs less than hashing one
    /// (kept, see Benchmarks/Gate/kept-shortcuts.md).
    private var exactList: [(subtype: String, entries: [Entry])]?
    static let scannedSubtypes = 8
    /// Suffix (from a registered `type/*+suffix`) → entries of every type with that suffix.
    private var suffixRanges: [String: [Entry]] = [:]
    /// `type` (from a registered `type/*`) → entries.
    private var typeRanges: [String: [Entry]] = [:]
    /// Registered `*/*`.
    private var anyType: [Entry] = []

    /// Base types of the structured-syntax suffixes (RFC 6839, RFC 9512, RFC 8949).
    /// All four are `application/<suffix>`.
    static let suffixesWithBaseTypes: Set<String> = ["json", "xml", "yaml", "cbor"]

    /// A matcher over `types`, each owned by its position.
    public init(_ types: [MediaType]) {
        self.init(owned: types.enumerated().map { ($0.element, $0.offset) })
    }

    /// A matcher over types each owned by the given number (a format's index, for a registry).
    public init(owned types: [(type: MediaType, owner: Int)]) {
        registeredTypes = types
        for (type, owner) in types {
            let entry = Entry(owner: owner, type: type)
            if type.type == "*" {
                anyType.append(entry)
            } else if type.subtype == "*" {
                typeRanges[type.type, default: []].append(entry)
            } else if type.subtype.hasPrefix("*+"), let suffix = type.suffix {
                suffixRanges[suffix, default: []].append(entry)
            } else {
                exact[type.subtype, default: []].append(entry)
            }
        }
        for key in exact.keys {
            // Stable: registration order within an equal parameter count.
            exact[key] = exact[key]!.enumerated().sorted {
                ($0.element.type.parameters.count, -$0.offset) > ($1.element.type.parameters.count, -$1.offset)
            }.map(\.element)
        }
        if exact.count <= Self.scannedSubtypes { exactList = exact.map { ($0.key, $0.value) } }
    }

    /// The best registered type for `contentType`, or `nil`. A range (`*/*`, `text/*`,
    /// `application/*+json`) matches nothing; parameters of `contentType` never prevent a match.
    public func match(_ contentType: MediaType) -> Match? {
        if Self.isWildcard(contentType) { return nil }
        if let entry = firstExact(contentType.type, contentType.subtype, contentType) {
            return Match(registered: entry.type, owner: entry.owner, rank: .exact)
        }
        if let suffix = contentType.suffix {
            if let entry = suffixRanges[suffix]?.first(where: { $0.type.type == contentType.type }) {
                return Match(registered: entry.type, owner: entry.owner, rank: .suffixRange)
            }
            if Self.suffixesWithBaseTypes.contains(suffix), let entry = firstExact("application", suffix, nil) {
                return Match(registered: entry.type, owner: entry.owner, rank: .suffixBaseType)
            }
        }
        if let entry = typeRanges[contentType.type]?.first {
            return Match(registered: entry.type, owner: entry.owner, rank: .typeRange)
        }
        if let entry = anyType.first {
            return Match(registered: entry.type, owner: entry.owner, rank: .anyType)
        }
        return nil
    }

    /// Whether `type` is a range rather than a concrete type: `*/*`, `type/*`, or a suffix range
    /// `type/*+suffix`, the forms registered ranges take. A wildcard `Content-Type` matches nothing.
    static func isWildcard(_ type: MediaType) -> Bool {
        if type.isRange { return true }
        var subtype = type.subtype.utf8.makeIterator()
        return subtype.next() == UInt8(ascii: "*") && subtype.next() == UInt8(ascii: "+")
    }

    /// The first entry for `type/subtype` whose registered parameters are all on `contentType`.
    private func firstExact(_ type: String, _ subtype: String, _ contentType: MediaType?) -> Entry? {
        let found = exactList.map { list in list.first { $0.subtype == subtype }?.entries } ?? exact[subtype]
        guard let entries = found else { return nil }
        for entry in entries where entry.type.type == type {
            if entry.type.parameterList.isEmpty { return entry }
            guard let contentType else { continue }
            let satisfied = entry.type.parameterList.allSatisfy { registered in
                contentType.parameterList.contains { $0.name == registered.name && $0.hasEqualValue(registered) }
            }
            if satisfied { return entry }
        }
        return nil
    }
}
