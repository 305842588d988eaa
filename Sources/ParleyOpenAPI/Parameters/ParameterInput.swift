import Parley

/// The raw parts of a request that parameters are read from, split once per request.
///
/// Nothing is percent-decoded here: each parameter decodes its own text, since where a value's
/// delimiters are (`,` against `%2C`) depends on its style.
///
/// ```swift
/// let input = ParameterInput(pathVariables: ["id": "42"], query: "color=blue&color=black",
///                            headerFields: [(name: "Cookie", value: "session=abc")])
/// ```
public struct ParameterInput: Sendable {
    /// One `name=value` member of a query string or form body.
    struct Pair: Sendable {
        /// The name, percent-decoded (`+` as a space); malformed escapes are kept as written.
        let name: String
        /// The value as written, `nil` when the member has no `=`.
        let rawValue: Substring?
    }

    /// The text each path template variable matched (`["id": "42"]` for `/books/{id}`), as written.
    public let pathVariables: [String: String]
    /// The query string's members in order.
    let queryPairs: [Pair]
    /// The header fields in order (names in any case), searched by name when a parameter asks.
    let headerFields: [(name: String, value: String)]
    /// The members of every `Cookie` field, in order, values as written.
    let cookies: [(name: String, value: String)]

    /// Creates the input of one request.
    ///
    /// - Parameters:
    ///   - pathVariables: The text each path template variable matched, still percent-encoded.
    ///   - query: The query string without its `?`, or `nil` when the target has none.
    ///   - headerFields: The header fields in order (names in any case); `Cookie` fields give the cookies.
    public init(pathVariables: [String: String] = [:], query: String? = nil,
                headerFields: [(name: String, value: String)] = []) {
        self.pathVariables = pathVariables
        self.queryPairs = query.map(Self.pairs(in:)) ?? []
        var cookies: [(name: String, value: String)] = []
        for field in headerFields where Self.sameFieldName(field.name, "cookie") {
            cookies += Self.cookies(in: field.value)
        }
        self.headerFields = headerFields
        self.cookies = cookies
    }

    /// The values of every header field named `name` (any case), each field line in order;
    /// `nil` when there is none. A request carries few fields, so a scan beats building a table.
    func headerLines(named name: String) -> [String]? {
        var lines: [String] = []
        for field in headerFields where Self.sameFieldName(field.name, name) { lines.append(field.value) }
        return lines.isEmpty ? nil : lines
    }

    /// Whether two field names are the same when lower-cased: ASCII names compare by their
    /// bytes, folding case; only a non-ASCII name is lower-cased whole.
    static func sameFieldName(_ a: String, _ b: String) -> Bool {
        if a.equalsIgnoringASCIICase(b) { return true }
        if a.utf8.allSatisfy({ $0 < 0x80 }) && b.utf8.allSatisfy({ $0 < 0x80 }) { return false }
        return a.lowercased() == b.lowercased()
    }

    /// The members of a query string or form body, split at `&` (empty members skipped). The
    /// delimiters are ASCII bytes, found in the UTF-8 without grapheme breaking.
    static func pairs(in query: String) -> [Pair] {
        query.utf8.split(separator: UInt8(ascii: "&")).map { bytes in
            let member = Substring(bytes)
            let equals = member.utf8.firstIndex(of: UInt8(ascii: "="))
            let name = member[..<(equals ?? member.endIndex)]
            return Pair(name: PercentEscaping.unescape(text: name, plusAsSpace: true),
                        rawValue: equals.map { member[member.utf8.index(after: $0)...] })
        }
    }

    /// The `name=value` members of one `Cookie` field (RFC 6265 §4.2.1), split at `;`.
    static func cookies(in field: String) -> [(name: String, value: String)] {
        field.split(separator: ";").compactMap { member in
            let trimmed = member.trimmingCharacters(in: " \t")
            guard let equals = trimmed.firstIndex(of: "=") else { return nil }
            return (String(trimmed[..<equals]), String(trimmed[trimmed.index(after: equals)...]))
        }
    }
}
