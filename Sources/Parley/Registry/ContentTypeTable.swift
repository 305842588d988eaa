/// The precomputed lookup behind ``Registry/decoder(for:)``.
struct ContentTypeTable: Sendable {
    struct Entry: Sendable {
        var formatIndex: Int
        var type: MediaType
    }

    /// A type and a subtype (or suffix), hashed without building a joined string.
    struct Key: Hashable, Sendable {
        var type: String
        var subtype: String
    }

    /// `type/subtype` → entries, most registered parameters first, then registration order.
    var exact: [Key: [Entry]] = [:]
    /// `type` and suffix (from a registered `type/*+suffix`) → entries.
    var suffixRanges: [Key: [Entry]] = [:]
    /// `type` (from a registered `type/*`) → entries.
    var typeRanges: [String: [Entry]] = [:]
    /// Registered `*/*`.
    var anyType: [Entry] = []

    /// Base types of the structured-syntax suffixes (RFC 6839, RFC 9512, RFC 8949).
    static let suffixBaseTypes: [String: Key] = [
        "json": Key(type: "application", subtype: "json"),
        "xml": Key(type: "application", subtype: "xml"),
        "yaml": Key(type: "application", subtype: "yaml"),
        "cbor": Key(type: "application", subtype: "cbor"),
    ]

    init(formats: [any Format]) {
        for (index, format) in formats.enumerated() {
            for type in format.decodableMediaTypes {
                let entry = Entry(formatIndex: index, type: type)
                if type.type == "*" {
                    anyType.append(entry)
                } else if type.subtype == "*" {
                    typeRanges[type.type, default: []].append(entry)
                } else if type.subtype.hasPrefix("*+"), let suffix = type.suffix {
                    suffixRanges[Key(type: type.type, subtype: suffix), default: []].append(entry)
                } else {
                    exact[Key(type: type.type, subtype: type.subtype), default: []].append(entry)
                }
            }
        }
        for key in exact.keys {
            // Stable: registration order within an equal parameter count.
            exact[key] = exact[key]!.enumerated().sorted {
                ($0.element.type.parameters.count, -$0.offset) > ($1.element.type.parameters.count, -$1.offset)
            }.map(\.element)
        }
    }

    func match(_ contentType: MediaType) -> (Int, MediaType, Registry.MatchRank)? {
        if Self.isWildcard(contentType) { return nil }
        if let entry = firstExact(Key(type: contentType.type, subtype: contentType.subtype), contentType) {
            return (entry.formatIndex, entry.type, .exact)
        }
        if let suffix = contentType.suffix {
            if let entry = suffixRanges[Key(type: contentType.type, subtype: suffix)]?.first {
                return (entry.formatIndex, entry.type, .suffixRange)
            }
            if let base = Self.suffixBaseTypes[suffix], let entry = firstExact(base, nil) {
                return (entry.formatIndex, entry.type, .suffixBaseType)
            }
        }
        if let entry = typeRanges[contentType.type]?.first {
            return (entry.formatIndex, entry.type, .typeRange)
        }
        if let entry = anyType.first {
            return (entry.formatIndex, entry.type, .anyType)
        }
        return nil
    }

    /// Whether `type` is a range rather than a concrete type: `*/*`, `type/*`, or a suffix range
    /// `type/*+suffix`, the forms registered ranges take. A wildcard `Content-Type` matches nothing.
    static func isWildcard(_ type: MediaType) -> Bool {
        type.isRange || type.subtype.utf8.starts(with: "*+".utf8)
    }

    /// The first entry for `key` whose registered parameters are all on `contentType`.
    private func firstExact(_ key: Key, _ contentType: MediaType?) -> Entry? {
        guard let entries = exact[key] else { return nil }
        for entry in entries {
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
