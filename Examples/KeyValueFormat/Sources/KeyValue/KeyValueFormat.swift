public import Parley

/// `application/vnd.example.kv`: one `key=value` pair per line, a format Parley does not ship.
///
/// ```
/// # a comment
/// name=Ada Lovelace
/// note=first line\nsecond line
/// ```
///
/// **Decoding** gives an object of strings in line order (a repeated key is kept, as JSON
/// objects keep theirs). Blank lines and lines starting with `#` are skipped; the key is the text
/// before the first unescaped `=`, and must not be empty. Escapes, in keys and values: `\\`,
/// `\n`, `\r`, `\t`, `\=` and `\#`. Lines end with LF or CRLF. Text follows the `charset`
/// parameter, then a byte-order mark, then UTF-8.
///
/// **Encoding** takes an object whose values are scalars (strings as they are, numbers and
/// Booleans as their text, null as an empty value) and writes one escaped line per member.
/// Anything else throws ``FormatError/Code/unsupportedValue``.
///
/// **Errors**: a line without `=`, an empty key or an unknown escape is
/// ``FormatError/Code/malformed`` with its line and column; invalid text is
/// ``FormatError/Code/invalidText``. **Limits**: `maxBodyBytes`, and `maxNodes` (members).
public struct KeyValueFormat: Format {
    /// Creates the format.
    public init() {}

    /// `"kv"`.
    public var name: String { "kv" }

    /// `application/vnd.example.kv`.
    public var decodableMediaTypes: [MediaType] { ["application/vnd.example.kv"] }

    /// `application/vnd.example.kv`.
    public var encodableMediaTypes: [MediaType] { ["application/vnd.example.kv"] }

    /// `true`: the body is text, so a reply's `Content-Type` carries `charset=utf-8`.
    public var isTextual: Bool { true }

    /// Decodes a body into an object of strings.
    ///
    /// - Throws: `FormatError` with `.malformed` (line and column), `.invalidText`,
    ///   `.unsupportedMediaType` (an unknown charset) or `.limitExceeded`.
    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        try context.limits.checkBodySize(bytes.count, format: name)
        let text = try Charset.decodeText(bytes, mediaType: context.mediaType, format: name)
        var members: [Value.Object.Member] = []
        var lineNumber = 0
        // "\r\n" is one Character in Swift, so both line ends are named.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            let (key, value) = try parse(line, lineNumber: lineNumber)
            members.append(.init(key: key, value: .string(value)))
            if members.count > context.limits.maxNodes {
                throw FormatError.limitExceeded(format: name, limit: "maxNodes", maximum: context.limits.maxNodes,
                                                location: .init(line: lineNumber))
            }
        }
        return .object(Value.Object(members))
    }

    /// Splits one line at its first unescaped `=` and resolves the escapes on both sides.
    private func parse(_ line: Substring, lineNumber: Int) throws(FormatError) -> (String, String) {
        var key: String?
        var current = ""
        var column = 0
        var characters = line.makeIterator()
        func malformed(_ message: String) -> FormatError {
            FormatError(.malformed, format: name, message, location: .init(line: lineNumber, column: column))
        }
        while let character = characters.next() {
            column += 1
            switch character {
            case "\\":
                column += 1
                switch characters.next() {
                case "\\": current.append("\\")
                case "n": current.append("\n")
                case "r": current.append("\r")
                case "t": current.append("\t")
                case "=": current.append("=")
                case "#": current.append("#")
                case let other?: throw malformed("unknown escape '\\\(other)'")
                case nil: throw malformed("a line cannot end with a lone backslash")
                }
            case "=" where key == nil:
                guard !current.isEmpty else { throw malformed("empty key") }
                key = current
                current = ""
            default:
                current.append(character)
            }
        }
        guard let key else { throw malformed("expected key=value") }
        return (key, current)
    }

    /// Encodes an object of scalars, one `key=value` line per member.
    ///
    /// - Throws: `FormatError` with `.unsupportedValue` for anything but an object of scalars,
    ///   or an empty key.
    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        guard case .object(let object) = value else {
            throw FormatError(.unsupportedValue, format: name, "kv holds an object, not a \(value.kindName)")
        }
        var text = ""
        for member in object {
            guard !member.key.isEmpty else { throw FormatError(.unsupportedValue, format: name, "empty key") }
            text += escape(member.key, isKey: true) + "=" + escape(try scalarText(member.value), isKey: false) + "\n"
        }
        return Array(text.utf8)
    }

    private func scalarText(_ value: Value) throws(FormatError) -> String {
        switch value {
        case .string(let s): return s
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .float(let d): return "\(d)"
        case .number(let text): return text
        case .tagged(_, let inner): return try scalarText(inner)
        default: throw FormatError(.unsupportedValue, format: name, "a \(value.kindName) has no kv form")
        }
    }

    private func escape(_ text: String, isKey: Bool) -> String {
        // By scalar, not Character: "\r\n" is one Character and must become two escapes.
        var out = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "=" where isKey: out += "\\="
            case "#" where isKey && index == 0: out += "\\#"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
