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
    public var pathVariables: [String: String] { variables.dictionary }
    /// ``pathVariables`` as the router matched them.
    let variables: PathVariables
    /// The query string's members in order.
    let queryPairs: [Pair]
    /// The header fields in order (names in any case), searched by name when a parameter asks.
    let headerFields: [(name: String, value: String)]

    /// Creates the input of one request.
    ///
    /// - Parameters:
    ///   - pathVariables: The text each path template variable matched, still percent-encoded.
    ///   - query: The query string without its `?`, or `nil` when the target has none.
    ///   - headerFields: The header fields in order (names in any case); `Cookie` fields give the cookies.
    public init(pathVariables: [String: String] = [:], query: String? = nil,
                headerFields: [(name: String, value: String)] = []) {
        self.init(pathVariables: PathVariables(pathVariables), query: query.map { $0[...] } ?? "",
                  headerFields: headerFields)
    }

    /// Creates the input of one request whose query (without its `?`) is part of its target.
    init(pathVariables: PathVariables, query: Substring, headerFields: [(name: String, value: String)]) {
        self.variables = pathVariables
        self.queryPairs = Self.pairs(in: query)
        self.headerFields = headerFields
    }

    /// The members of every `Cookie` field, in order, values as written; read when a cookie
    /// parameter asks, since most requests are checked without one.
    var cookies: [(name: String, value: String)] {
        var cookies: [(name: String, value: String)] = []
        for field in headerFields where Self.sameFieldName(field.name, "cookie") {
            cookies += Self.cookies(in: field.value)
        }
        return cookies
    }

    /// The values of every header field named `name` (any case), each field line in order;
    /// `nil` when there is none. A request carries few fields, so a scan beats building a table.
    func headerLines(named name: String) -> [String]? {
        var lines: [String] = []
        for field in headerFields where Self.sameFieldName(field.name, name) { lines.append(field.value) }
        return lines.isEmpty ? nil : lines
    }

    /// The header fields named `name` as one value: their lines joined with commas (an HTTP
    /// list), or the one line as it is; `nil` when there is none.
    func headerValue(named name: String) -> String? {
        guard let lines = headerLines(named: name) else { return nil }
        return lines.count == 1 ? lines[0] : lines.joined(separator: ",")
    }

    /// Whether two field names are the same when lower-cased: ASCII names compare by their
    /// bytes, folding case; only a non-ASCII name is lower-cased whole.
    static func sameFieldName(_ a: String, _ b: String) -> Bool {
        if a.equalsIgnoringASCIICase(b) { return true }
        let isASCII = { (bytes: UnsafeBufferPointer<UInt8>) in !bytes.contains { $0 >= 0x80 } }
        if a.withUTF8Bytes(isASCII) && b.withUTF8Bytes(isASCII) { return false }
        return a.lowercased() == b.lowercased()
    }

    /// The members of a query string or form body, split at `&` (empty members skipped). The
    /// delimiters are ASCII bytes, found in one pass over the UTF-8 without grapheme breaking.
    static func pairs(in query: some StringProtocol) -> [Pair] {
        let text = Substring(query)
        guard !text.isEmpty else { return [] }
        let utf8 = text.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        let members = text.withUTF8Bytes(Self.members)
        var pairs: [Pair] = []
        pairs.reserveCapacity(members.count)
        for member in members {
            let name = text[index(member.start)..<index(member.equals ?? member.end)]
            pairs.append(Pair(name: PercentEscaping.unescape(text: name, plusAsSpace: true),
                              rawValue: member.equals.map { text[index($0 + 1)..<index(member.end)] }))
        }
        return pairs
    }

    /// Each non-empty `&`-separated member's start, first `=` (if any) and end, as byte offsets.
    static func members(_ bytes: UnsafeBufferPointer<UInt8>) -> [(start: Int, equals: Int?, end: Int)] {
        var members: [(start: Int, equals: Int?, end: Int)] = []
        // Room for every member first: growing the list one member at a time reallocated it.
        members.reserveCapacity(bytes.count { $0 == UInt8(ascii: "&") } + 1)
        var start = 0
        var equals: Int?
        for offset in 0...bytes.count {
            let byte = offset < bytes.count ? bytes[offset] : UInt8(ascii: "&")
            if byte == UInt8(ascii: "=") && equals == nil { equals = offset }
            guard byte == UInt8(ascii: "&") else { continue }
            if offset > start { members.append((start, equals, offset)) }
            (start, equals) = (offset + 1, nil)
        }
        return members
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
