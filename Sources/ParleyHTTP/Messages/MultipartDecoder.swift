public import Parley

/// Decodes a `multipart/form-data` body (RFC 7578, RFC 2046 §5.1) into its parts — what a
/// gateway receiving uploads needs — within ``Limits``.
///
/// ```swift
/// let parts = try MultipartDecoder().decode(body, contentType: request.headerFields[.contentType] ?? "")
/// let title = parts.first { $0.name == "title" }?.text
/// ```
///
/// A preamble before the first delimiter and an epilogue after the last are ignored; header
/// field names are matched case-insensitively; `filename*` (RFC 5987) wins over `filename`;
/// `%22`, `%0D` and `%0A` in quoted names are read back as `"`, CR and LF.
public struct MultipartDecoder: Sendable {
    /// Bounds on what a body may contain.
    public struct Limits: Sendable, Hashable {
        /// The largest body. Default 64 MiB.
        public var maxBodyBytes: Int
        /// The most parts. Default 1000.
        public var maxParts: Int
        /// The largest content of one part. Default 64 MiB.
        public var maxPartBytes: Int
        /// The largest header block of one part. Default 16 KiB.
        public var maxHeaderBytes: Int

        /// Creates limits.
        public init(maxBodyBytes: Int = 64 << 20, maxParts: Int = 1000, maxPartBytes: Int = 64 << 20,
                    maxHeaderBytes: Int = 16 << 10) {
            self.maxBodyBytes = maxBodyBytes
            self.maxParts = maxParts
            self.maxPartBytes = maxPartBytes
            self.maxHeaderBytes = maxHeaderBytes
        }
    }

    /// One decoded part.
    public struct Part: Sendable, Hashable {
        /// The `name` parameter of `Content-Disposition`.
        public var name: String
        /// The filename, when the part is a file.
        public var filename: String?
        /// The part's `Content-Type`, when present and valid.
        public var contentType: MediaType?
        /// Every header field, names lower-cased, in order.
        public var headerFields: [(name: String, value: String)]
        /// The content bytes.
        public var body: [UInt8]

        /// The content as UTF-8 text (invalid sequences replaced).
        public var text: String { String(decoding: body, as: UTF8.self) }

        public static func == (lhs: Part, rhs: Part) -> Bool {
            lhs.name == rhs.name && lhs.filename == rhs.filename && lhs.contentType == rhs.contentType
                && lhs.body == rhs.body && lhs.headerFields.elementsEqual(rhs.headerFields) { $0 == $1 }
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(filename)
            hasher.combine(body)
        }
    }

    /// The bounds in force.
    public var limits: Limits

    /// Creates a decoder.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    static let formatName = "multipart"

    /// Decodes a body labelled with `contentType` (`multipart/form-data; boundary=…`).
    ///
    /// - Throws: `FormatError` with `FormatError.Code.malformed` (no boundary, missing
    ///   delimiters, a part without a name), `FormatError.Code.truncated` or
    ///   `FormatError.Code.limitExceeded`.
    public func decode(_ body: [UInt8], contentType: String) throws -> [Part] {
        guard let type = MediaType(contentType), type.type == "multipart", let boundary = type.parameter("boundary"),
              !boundary.isEmpty, boundary.utf8.count <= 70 else {
            throw FormatError(.malformed, format: Self.formatName, "'\(contentType)' is not multipart with a boundary")
        }
        return try decode(body, boundary: boundary)
    }

    /// Decodes a body with a known boundary (without the leading `--`).
    public func decode(_ body: [UInt8], boundary: String) throws -> [Part] {
        try DecodingLimits(maxBodyBytes: limits.maxBodyBytes).checkBodySize(body.count, format: Self.formatName)
        let dashBoundary = Array(("--" + boundary).utf8)
        let delimiter = Array(("\r\n--" + boundary).utf8)
        // The first delimiter may open the body or follow a preamble line.
        var position: Int
        if body.starts(with: dashBoundary) {
            position = dashBoundary.count
        } else if let found = MultipartScanner.firstIndex(of: delimiter, in: body[...]) {
            position = found + delimiter.count
        } else {
            throw FormatError(.malformed, format: Self.formatName, "no '--\(boundary)' delimiter")
        }
        var parts: [Part] = []
        while true {
            // After a delimiter: `--` closes the body; otherwise optional padding and CRLF.
            if body[position...].starts(with: [0x2D, 0x2D]) { return parts }
            while position < body.count, body[position] == 0x20 || body[position] == 0x09 { position += 1 }
            guard body[position...].starts(with: [0x0D, 0x0A]) else {
                throw FormatError(.malformed, format: Self.formatName, "delimiter not followed by CRLF",
                                  location: .init(byteOffset: position))
            }
            position += 2
            if parts.count == limits.maxParts {
                throw FormatError.limitExceeded(format: Self.formatName, limit: "maxParts", maximum: limits.maxParts)
            }
            // The window is clamped without adding the limit to the position (a limit near
            // `Int.max` must not overflow).
            let headerWindowEnd = CheckedArithmetic.end(of: CheckedArithmetic.sum(limits.maxHeaderBytes, 4) ?? Int.max,
                                                        from: position, clampedTo: body.count)
            let headerEnd = MultipartScanner.firstIndex(of: [0x0D, 0x0A, 0x0D, 0x0A],
                                                        in: body[position..<headerWindowEnd])
            let contentStart: Int
            let headerFields: [(name: String, value: String)]
            if body[position...].starts(with: [0x0D, 0x0A]) {
                headerFields = []
                contentStart = position + 2
            } else if let headerEnd {
                headerFields = try Self.headerFields(body[position..<headerEnd], at: position)
                contentStart = headerEnd + 4
            } else if body.count - position > limits.maxHeaderBytes {
                throw FormatError.limitExceeded(format: Self.formatName, limit: "maxHeaderBytes",
                                                maximum: limits.maxHeaderBytes)
            } else {
                throw FormatError(.truncated, format: Self.formatName, "part headers never end",
                                  location: .init(byteOffset: position))
            }
            guard let contentEnd = MultipartScanner.firstIndex(of: delimiter, in: body[contentStart...]) else {
                throw FormatError(.truncated, format: Self.formatName,
                                  "no closing delimiter after byte \(contentStart)")
            }
            if contentEnd - contentStart > limits.maxPartBytes {
                throw FormatError.limitExceeded(format: Self.formatName, limit: "maxPartBytes",
                                                maximum: limits.maxPartBytes, actual: contentEnd - contentStart)
            }
            parts.append(try Self.part(headerFields, body: Array(body[contentStart..<contentEnd]), at: position))
            position = contentEnd + delimiter.count
        }
    }

    static func headerFields(_ bytes: ArraySlice<UInt8>, at offset: Int) throws -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
            let text = String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else {
                throw FormatError(.malformed, format: formatName, "part header line without ':'",
                                  location: .init(byteOffset: offset))
            }
            let value = text[text.index(after: colon)...].trimmingSpacesAndTabs()
            fields.append((text[..<colon].lowercased(), value))
        }
        return fields
    }

    static func part(_ fields: [(name: String, value: String)], body: [UInt8], at offset: Int) throws -> Part {
        guard let disposition = fields.first(where: { $0.name == "content-disposition" })?.value else {
            throw FormatError(.malformed, format: formatName, "part without Content-Disposition",
                              location: .init(byteOffset: offset))
        }
        let parameters = DispositionParameters.parse(disposition)
        guard let name = parameters["name"] else {
            throw FormatError(.malformed, format: formatName, "part without a name",
                              location: .init(byteOffset: offset))
        }
        let filename = parameters["filename*"].flatMap(DispositionParameters.decodeExtended) ?? parameters["filename"]
        let type = fields.first { $0.name == "content-type" }.flatMap { MediaType($0.value) }
        return Part(name: name, filename: filename, contentType: type, headerFields: fields, body: body)
    }
}

/// Byte search used by the multipart encoder and decoder.
enum MultipartScanner {
    /// The index of the first occurrence of `needle` in `haystack`, or `nil`.
    /// Linear in practice: candidates start only where the needle's first byte occurs.
    static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        let last = haystack.endIndex - needle.count
        var i = haystack.startIndex
        while i <= last {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

/// `Content-Disposition` parameters: `form-data; name="a"; filename="b.txt"`.
enum DispositionParameters {
    static func parse(_ value: String) -> [String: String] {
        var result: [String: String] = [:]
        let bytes = Array(value.utf8)
        var i = 0
        // Skip the disposition type.
        while i < bytes.count, bytes[i] != UInt8(ascii: ";") { i += 1 }
        while i < bytes.count {
            i += 1   // the ';'
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
            let nameStart = i
            while i < bytes.count, bytes[i] != UInt8(ascii: "="), bytes[i] != UInt8(ascii: ";") { i += 1 }
            let name = String(decoding: bytes[nameStart..<i], as: UTF8.self).lowercased().trimmingSpacesAndTabs()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { continue }
            i += 1
            var raw: [UInt8] = []
            if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                i += 1
                while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                    if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count { i += 1 }
                    raw.append(bytes[i])
                    i += 1
                }
                i += 1
                while i < bytes.count, bytes[i] != UInt8(ascii: ";") { i += 1 }
                result[name] = unescapeQuoted(String(decoding: raw, as: UTF8.self))
            } else {
                let start = i
                while i < bytes.count, bytes[i] != UInt8(ascii: ";") { i += 1 }
                result[name] = String(decoding: bytes[start..<i], as: UTF8.self).trimmingSpacesAndTabs()
            }
        }
        return result
    }

    static func unescapeQuoted(_ text: String) -> String {
        guard text.contains("%") else { return text }
        return text.replacing("%22", with: "\"").replacing("%0D", with: "\r").replacing("%0A", with: "\n")
    }

    /// RFC 5987 `UTF-8''percent-encoded` (other charsets are ignored).
    static func decodeExtended(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].lowercased() == "utf-8" else { return nil }
        return PercentEscaping.unescape(Array(pieces[2].utf8), plusAsSpace: false)
    }
}
