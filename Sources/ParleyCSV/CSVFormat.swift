public import Parley

/// CSV (`text/csv`, RFC 4180) with its `header` parameter, in Swift.
///
/// **Decoding** gives an array with one element per record: with a header row each record
/// after the first is an object whose keys are the first record's fields (in order); otherwise
/// each record is an array of strings. `header=present` says there is a header row,
/// `header=absent` that there is none; without the parameter the first record is a header when
/// ``startsWithHeader(_:)`` says so (its fields are all text, and every later record has as many
/// fields and at least one number, Boolean or empty field). Every field is a string: CSV has no
/// types (a `Decodable` type converts them, see `ValueDecoder`).
///
/// ```swift
/// let csv = CSVFormat()
/// let rows = try csv.decode(Array("name,age\r\nAda,36\r\n".utf8), as: "text/csv;header=present")
/// // [["name": "Ada", "age": "36"]]
/// let body = try csv.encode([["name": "Ada", "age": 36]])   // "name,age\r\nAda,36\r\n"
/// ```
///
/// With a header, a record with a different number of fields than the header is
/// `FormatError/Code/malformed`. The grammar, errors and limits are ``CSVRowReader``'s; read
/// large bodies with it directly, one record at a time.
///
/// **Text** follows the `charset` parameter, then a byte-order mark, then UTF-8 (a superset of
/// RFC 4180's US-ASCII default). UTF-16 and UTF-32 bodies are transcoded first.
///
/// **Encoding** takes an array of flat objects (a header row from their keys in first-seen
/// order, a missing key an empty field; no header row when the media type says
/// `header=absent`) or an array of arrays (written as they are). Fields holding a comma, quote,
/// CR or LF are quoted, quotes doubled; records end with CRLF. Scalars are written as text:
/// numbers as JSON writes them, `true`/`false`, null as an empty field, dates in RFC 3339,
/// bytes in base64, tags as their inner value. Nested containers, rows of no fields and a mix of
/// objects and arrays throw `FormatError/Code/unsupportedValue`. The `charset` parameter of
/// the chosen type picks the output charset (default UTF-8).
public struct CSVFormat: Format {
    /// Creates the CSV format.
    public init() {}

    /// `"csv"`.
    public var name: String { Self.formatName }

    /// `text/csv`.
    public var decodableMediaTypes: [MediaType] { ["text/csv"] }

    /// `text/csv`.
    public var encodableMediaTypes: [MediaType] { ["text/csv"] }

    /// `true`: CSV is text.
    public var isTextual: Bool { true }
    /// `true`: every scalar is text, so Codable decoding converts it to the type asked for.
    public var scalarsAreText: Bool { true }

    /// `true`: `text/csv` may be sent in any charset its `charset` parameter names (RFC 4180).
    public var allowsCharsetTranscoding: Bool { true }

    static let formatName = "csv"

    /// Whether `mediaType` says the first record is a header (`header=present`, any case).
    public static func hasHeader(_ mediaType: MediaType) -> Bool {
        mediaType.parameter("header")?.lowercased() == "present"
    }

    /// Decodes a CSV body.
    ///
    /// - Parameters:
    ///   - bytes: The body.
    ///   - context: The media type (its `header` and `charset` parameters are honoured) and limits.
    /// - Returns: An array of records: objects when there is a header row, arrays of strings otherwise.
    /// - Throws: `FormatError` as ``CSVRowReader/nextRow()`` does, `FormatError/Code/malformed`
    ///   for a record whose field count differs from the header's, and
    ///   `FormatError/Code/unsupportedMediaType` for an unknown charset.
    public func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value {
        try context.limits.checkBodySize(bytes.count, format: name)
        var charset = Charset.utf8
        if let declared = context.mediaType.charset {
            guard let known = Charset(name: declared) else {
                throw FormatError(.unsupportedMediaType, format: name, "unsupported charset '\(declared)'")
            }
            charset = known
        } else if let (marked, _) = Charset.byteOrderMark(in: bytes) {
            charset = marked
        }
        if [Charset.utf8, .ascii, .latin1, .windows1252].contains(charset) {
            return try decodeRows(bytes, charset: charset, context: context)
        }
        let text = try Charset.decodeText(bytes, mediaType: context.mediaType, format: name)
        return try Array(text.utf8).withUnsafeBytes { try decodeRows($0, charset: .utf8, context: context) }
    }

    private func decodeRows(
        _ bytes: UnsafeRawBufferPointer, charset: Charset, context: DecodingContext
    ) throws -> Value {
        var reader = try CSVRowReader(charset: charset, limits: context.limits)
        try reader.append(bytes)
        reader.finish()
        var rows: [[String]] = []
        while let row = try reader.nextRow() { rows.append(row) }
        let header = context.mediaType.parameter("header")?.lowercased()
        guard header == "present" || (header == nil && Self.startsWithHeader(rows)), let keys = rows.first else {
            return .array(rows.map { .array($0.map(Value.string)) })
        }
        var records: [Value] = []
        records.reserveCapacity(rows.count - 1)
        for (offset, row) in rows.dropFirst().enumerated() {
            guard row.count == keys.count else {
                throw FormatError(.malformed, format: name,
                                  "record \(offset + 2) has \(row.count) field(s) but the header has \(keys.count)")
            }
            var members: [Value.Object.Member] = []
            members.reserveCapacity(keys.count)
            for (key, field) in zip(keys, row) { members.append(.init(key: key, value: .string(field))) }
            records.append(.object(Value.Object(members)))
        }
        return .array(records)
    }

    /// Whether records without a `header` parameter start with a header row: the first record's
    /// fields are all text, and every later record (there is at least one) has as many fields and
    /// at least one that is not text. A field is text unless it is empty, a number
    /// (`[+-]digits[.digits][e[+-]digits]`) or `true`/`false`.
    ///
    /// - Parameter records: The records, in order.
    /// - Returns: `true` when the first record reads as column names.
    public static func startsWithHeader(_ records: [[String]]) -> Bool {
        guard let first = records.first, records.count > 1, !first.isEmpty, first.allSatisfy(isText) else {
            return false
        }
        return records.dropFirst().allSatisfy { $0.count == first.count && !$0.allSatisfy(isText) }
    }

    private static func isText(_ field: String) -> Bool {
        let trimmed = TextScalar.trimmed(field)
        return !trimmed.isEmpty && !TextScalar.isNumber(trimmed) && trimmed != "true" && trimmed != "false"
    }

    /// Encodes an array of flat objects or of arrays as CSV.
    ///
    /// - Throws: `FormatError/Code/unsupportedValue` for any other shape, and for characters
    ///   the chosen charset cannot hold.
    public func encode(_ value: Value, context: EncodingContext) throws -> [UInt8] {
        var charset = Charset.utf8
        if let declared = context.mediaType.charset {
            guard let known = Charset(name: declared) else {
                throw FormatError(.unsupportedMediaType, format: name, "unsupported charset '\(declared)'")
            }
            charset = known
        }
        let writesHeader = context.mediaType.parameter("header")?.lowercased() != "absent"
        let utf8 = try CSVWriter.write(value, writesHeader: writesHeader)
        guard charset != .utf8 else { return utf8 }
        return try charset.encode(String(decoding: utf8, as: UTF8.self), format: name)
    }
}
