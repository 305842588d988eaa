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

        /// The member of `text` (whose UTF-8 bytes are `bytes`) from byte `start` to `end`, its
        /// first `=` at `equals`: a name without escapes is read from the bytes as it is.
        init(_ text: Substring, _ bytes: UnsafeBufferPointer<UInt8>, start: Int, equals: Int?, end: Int) {
            let nameBytes = UnsafeBufferPointer(rebasing: bytes[start..<(equals ?? end)])
            if nameBytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) {
                name = PercentEscaping.unescape(text: Substring(decoding: nameBytes, as: UTF8.self), plusAsSpace: true)
            } else {
                name = String(decoding: nameBytes, as: UTF8.self)
            }
            let utf8 = text.utf8
            rawValue = equals.map { equals in
                let valueStart = utf8.index(utf8.startIndex, offsetBy: equals + 1)
                return Substring(utf8[valueStart..<utf8.index(valueStart, offsetBy: end - equals - 1)])
            }
        }
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
        // Found in one pass, without a list of lines: most headers have one.
        var value: String?
        for field in headerFields where Self.sameFieldName(field.name, name) {
            value = value.map { $0 + "," + field.value } ?? field.value
        }
        return value
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
        return text.withUTF8Bytes { bytes in
            var pairs: [Pair] = []
            // Room for every member first: growing the list one member at a time reallocated it.
            pairs.reserveCapacity(bytes.count { $0 == UInt8(ascii: "&") } + 1)
            var start = 0
            var equals: Int?
            for offset in 0...bytes.count {
                let byte = offset < bytes.count ? bytes[offset] : UInt8(ascii: "&")
                if byte == UInt8(ascii: "=") && equals == nil { equals = offset }
                guard byte == UInt8(ascii: "&") else { continue }
                if offset > start { pairs.append(Pair(text, bytes, start: start, equals: equals, end: offset)) }
                (start, equals) = (offset + 1, nil)
            }
            return pairs
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
