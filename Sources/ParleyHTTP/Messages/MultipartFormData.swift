public import Parley

/// A `multipart/form-data` body (RFC 7578): text fields and file parts from memory, files on
/// disk and streams, produced in bounded memory with an exact `Content-Length`.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append(name: "title", value: "Holiday")
/// try form.append(name: "photo", fileAt: "/tmp/beach.jpg")      // image/jpeg, not read yet
/// request.headerFields[.contentType] = form.contentType.description
/// request.headerFields[.contentLength] = String(form.contentLength)
/// let reader = form.makeReader()                                // pull 64 KiB at a time
/// ```
///
/// - **Boundary**: `parley-` and 32 random hex digits (128 bits from the system generator), so a
///   collision with file or stream content has probability 2⁻¹²⁸; in-memory parts are also
///   checked and a colliding boundary is replaced.
/// - **Names and filenames** are written as RFC 7578 §4.2 asks: UTF-8 in a quoted string, with
///   `"`, CR and LF written `%22`, `%0D`, `%0A` (as browsers do). ``extendedFilenames`` adds an
///   RFC 5987 `filename*=UTF-8''…` parameter for servers that predate RFC 7578.
/// - **Content types** of file parts come from the argument, else the extension through
///   ``typesByExtension``, else `application/octet-stream`. Text fields carry no `Content-Type`
///   (RFC 7578 §4.4 default `text/plain`).
/// - **Length**: the framing is computed up front and files are measured with `stat`, so
///   ``contentLength`` is exact without reading them; producing the body checks each file and
///   stream yields exactly the length announced, and throws otherwise.
public struct MultipartFormData: Sendable {
    /// When a part's `Content-Disposition` also carries `filename*` (RFC 5987).
    public enum ExtendedFilenames: Sendable, Hashable {
        /// Never (RFC 7578 §4.2). The default.
        case never
        /// When the filename is not ASCII.
        case whenNotASCII
    }

    /// The boundary, without the leading `--`.
    public let boundary: String
    /// The parts in order.
    public private(set) var parts: [Part] = []
    /// Media types by lower-cased extension, for file parts appended without a content type.
    public var typesByExtension: [String: MediaType] = FileExtensionMediaTypes.standard
    /// Whether to add `filename*` parameters. Default ``ExtendedFilenames/never``.
    public var extendedFilenames: ExtendedFilenames = .never

    static let formatName = "multipart"
    private var hasRandomBoundary = false

    /// Creates an empty form with a random boundary.
    public init() {
        self.boundary = Self.randomBoundary()
        self.hasRandomBoundary = true
    }

    /// Creates an empty form with a given boundary (for reproducible output).
    ///
    /// - Throws: `FormatError.Code.unsupportedValue` when the boundary is not 1–70 RFC 2046
    ///   `bchars` or ends with a space.
    public init(boundary: String) throws {
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
        guard (1...70).contains(boundary.utf8.count), boundary.utf8.allSatisfy(allowed.contains),
              boundary.utf8.last != 0x20 else {
            throw FormatError(.unsupportedValue, format: Self.formatName, "invalid multipart boundary '\(boundary)'")
        }
        self.boundary = boundary
    }

    /// `multipart/form-data; boundary=…`.
    public var contentType: MediaType {
        MediaType(lowercasedType: "multipart", subtype: "form-data",
                  parameters: [.init(name: "boundary", value: boundary)])
    }

    /// Appends a text field (UTF-8, no `Content-Type`).
    public mutating func append(name: String, value: String) {
        append(Part(name: name, content: .bytes(Array(value.utf8))))
    }

    /// Appends a part from bytes in memory; a `filename` makes it a file part.
    public mutating func append(name: String, bytes: [UInt8], filename: String? = nil, contentType: MediaType? = nil) {
        let type = contentType ?? filename.map(inferredType(for:))
        append(Part(name: name, filename: filename, contentType: type, content: .bytes(bytes)))
    }

    /// Appends a file on disk, measured now and read only when the body is produced.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - path: The file's path.
    ///   - filename: The name sent; default the last path component.
    ///   - contentType: The type sent; default inferred from the filename's extension.
    /// - Throws: `FormatError.Code.unsupportedValue` when the path is not a readable regular file.
    public mutating func append(name: String, fileAt path: String, filename: String? = nil,
                                contentType: MediaType? = nil) throws {
        let length = try FileBytes.size(ofFileAt: path)
        let sent = filename ?? (path.split(separator: "/").last.map(String.init) ?? path)
        append(Part(name: name, filename: sent, contentType: contentType ?? inferredType(for: sent),
                    content: .file(path: path, length: length)))
    }

    /// Appends a part whose bytes come from a stream of known length, opened each time the body
    /// is produced.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - length: The exact number of bytes the stream yields.
    ///   - filename: The name sent, if any.
    ///   - contentType: The type sent; default inferred from the filename, else `application/octet-stream`.
    ///   - open: Makes a fresh reader positioned at the start.
    public mutating func append(name: String, length: Int, filename: String? = nil, contentType: MediaType? = nil,
                                open: @escaping @Sendable () throws -> any ByteReader) {
        let type = contentType ?? filename.map(inferredType(for:)) ?? .applicationOctetStream
        append(Part(name: name, filename: filename, contentType: type, content: .stream(length: length, open: open)))
    }

    /// Appends a part as it is.
    public mutating func append(_ part: Part) {
        parts.append(part)
        if hasRandomBoundary { ensureBoundaryIsUnique() }
    }

    private func inferredType(for filename: String) -> MediaType {
        FileExtensionMediaTypes.fileExtension(of: filename).flatMap { typesByExtension[$0] } ?? .applicationOctetStream
    }

    // MARK: Framing

    /// The bytes before part `index`'s content: the delimiter and the part's header fields.
    func head(ofPart index: Int) -> [UInt8] {
        var text = index == 0 ? "--" : "\r\n--"
        text += boundary
        text += "\r\n"
        let part = parts[index]
        text += "Content-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
        if let filename = part.filename {
            text += "; filename=\"\(Self.quoted(filename))\""
            if extendedFilenames == .whenNotASCII, !filename.utf8.allSatisfy({ $0 < 0x80 }) {
                text += "; filename*=UTF-8''" + Self.rfc5987.escape(filename)
            }
        }
        text += "\r\n"
        if let type = part.contentType { text += "Content-Type: \(type)\r\n" }
        for (name, value) in part.additionalHeaders { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The closing delimiter.
    var tail: [UInt8] {
        Array(((parts.isEmpty ? "--" : "\r\n--") + boundary + "--\r\n").utf8)
    }

    /// The exact body length: framing plus every part's content length.
    public var contentLength: Int {
        var total = tail.count
        for index in parts.indices { total += head(ofPart: index).count + parts[index].content.length }
        return total
    }

    /// The whole body in memory. Meant for small forms and tests; use ``makeReader()`` or
    /// ``chunks(size:)`` for files.
    public func encodedBytes() throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(contentLength)
        let reader = makeReader()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { return out }
            out.append(contentsOf: buffer[0..<count])
        }
    }

    /// A reader producing the body from the start.
    public func makeReader() -> Reader {
        Reader(form: self)
    }

    /// The body as an asynchronous sequence of chunks of at most `size` bytes.
    public func chunks(size: Int = 64 << 10) -> Chunks {
        Chunks(form: self, size: max(1, size))
    }

    /// Writes the body to a new file at `path` (created with mode 0600, replaced if present),
    /// in chunks of `chunkSize` bytes.
    public func write(toFileAt path: String, chunkSize: Int = 256 << 10) throws {
        try FileBytes.write(toFileAt: path) { sink in
            let reader = makeReader()
            var buffer = [UInt8](repeating: 0, count: max(1, chunkSize))
            while true {
                let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
                if count == 0 { return }
                try buffer.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
        }
    }

    // MARK: Text

    /// RFC 7578 §4.2 / WHATWG: `"`, CR and LF escaped in a quoted parameter value.
    static func quoted(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "%22"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// RFC 5987 `attr-char`: ALPHA DIGIT and `!#$&+-.^_`|~`.
    static let rfc5987 = PercentEscaping(allowedCharacters: PercentEscaping.unreservedCharacters + "!#$&+^`|")

    static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return "parley-" + hex(high) + hex(low)
    }

    /// Replaces the boundary when an in-memory part contains it (practically never).
    mutating func ensureBoundaryIsUnique() {
        // Only parts in memory can be checked without reading files.
        let needle = Array(("--" + boundary).utf8)
        let collides = parts.contains { part in
            guard case .bytes(let bytes) = part.content else { return false }
            return MultipartScanner.firstIndex(of: needle, in: bytes[...]) != nil
        }
        guard collides else { return }
        var fresh = MultipartFormData()
        fresh.parts = parts
        fresh.typesByExtension = typesByExtension
        fresh.extendedFilenames = extendedFilenames
        self = fresh
    }
}
