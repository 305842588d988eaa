public import Parley

/// Reads CSV records (RFC 4180) one at a time from bytes that arrive in chunks, so a large body
/// never has to be held, or turned into a value tree, at once.
///
/// ```swift
/// var reader = try CSVRowReader(charset: .utf8)
/// for try await chunk in body {            // any chunks: [UInt8], ByteBuffer views, Data …
///     try reader.append(chunk)
///     while let row = try reader.nextRow() { handle(row) }
/// }
/// reader.finish()
/// while let row = try reader.nextRow() { handle(row) }
/// ```
///
/// Records end at CRLF, LF or CR outside quotes; the last record may omit it. A field is quoted
/// with `"` to hold commas, quotes (doubled: `""`) and line breaks. A quote inside an unquoted
/// field, or anything but a comma or line end after a closing quote, is
/// `FormatError/Code/malformed`; input ending inside a quoted field is
/// `FormatError/Code/truncated`. An empty line is a record with one empty field.
///
/// Charsets: ASCII-compatible ones (UTF-8, US-ASCII, ISO-8859-1, windows-1252), decoded field by
/// field. A UTF-8 byte-order mark at the start is skipped. For UTF-16 or UTF-32, transcode first
/// (``CSVFormat`` does this for whole bodies).
///
/// Limits: `DecodingLimits/maxBodyBytes` bounds the bytes appended in total (so also the
/// longest record held), `DecodingLimits/maxNodes` the number of records plus fields, each
/// counted before it is made.
public struct CSVRowReader: Sendable {
    /// The charset fields are decoded in.
    public let charset: Charset
    /// The limits in force.
    public let limits: DecodingLimits

    private var buffer: [UInt8] = []
    private var recordStart = 0
    private var scanPosition = 0
    private var scanInQuotes = false
    private var isFinished = false
    private var droppedBytes = 0
    private var line = 1
    /// Records and fields read so far, against `DecodingLimits/maxNodes`.
    private var nodeCount = 0
    private var skippedByteOrderMark = false

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - charset: The charset of the bytes; default UTF-8.
    ///   - limits: The limits to apply; default `DecodingLimits/standard`.
    /// - Throws: `FormatError/Code/unsupportedMediaType` for UTF-16 and UTF-32, which a
    ///   byte-level reader cannot split safely.
    public init(charset: Charset = .utf8, limits: DecodingLimits = .standard) throws(FormatError) {
        guard [Charset.utf8, .ascii, .latin1, .windows1252].contains(charset) else {
            throw FormatError(
                .unsupportedMediaType, format: CSVFormat.formatName,
                "the row reader reads ASCII-compatible charsets, not \(charset); transcode to UTF-8 first")
        }
        self.charset = charset
        self.limits = limits
    }

    /// The number of bytes appended so far.
    public var bytesRead: Int { droppedBytes + buffer.count }

    /// Adds the next chunk of the body.
    ///
    /// - Throws: `FormatError/Code/limitExceeded` when the bytes appended exceed
    ///   `DecodingLimits/maxBodyBytes`.
    public mutating func append<Bytes: Sequence<UInt8>>(_ chunk: Bytes) throws(FormatError) {
        precondition(!isFinished, "CSVRowReader.append after finish()")
        if recordStart > 0 {
            buffer.removeSubrange(0..<recordStart)
            droppedBytes += recordStart
            scanPosition -= recordStart
            recordStart = 0
        }
        buffer.append(contentsOf: chunk)
        try limits.checkBodySize(bytesRead, format: CSVFormat.formatName)
        if !skippedByteOrderMark && charset == .utf8 && bytesRead >= 3 {
            skippedByteOrderMark = true
            if droppedBytes == 0, buffer.starts(with: [0xEF, 0xBB, 0xBF]) {
                recordStart = 3
                scanPosition = 3
            }
        }
    }

    /// Marks the end of the body: the last record no longer needs a line break.
    public mutating func finish() {
        isFinished = true
    }

    /// The next complete record, or `nil` when more input is needed (or, after ``finish()``,
    /// when every record has been read).
    ///
    /// - Throws: `FormatError` with `FormatError/Code/malformed`,
    ///   `FormatError/Code/truncated`, `FormatError/Code/invalidText` or
    ///   `FormatError/Code/limitExceeded`, located by line and byte offset.
    public mutating func nextRow() throws(FormatError) -> [String]? {
        let scan = buffer.withUnsafeBufferPointer {
            Self.findRecordEnd(in: $0, from: scanPosition, inQuotes: scanInQuotes, isFinished: isFinished)
        }
        scanPosition = scan.position
        scanInQuotes = scan.inQuotes
        guard let end = scan.recordEnd else {
            guard isFinished, recordStart < buffer.count else { return nil }
            return try takeRecord(end: buffer.count, next: buffer.count)
        }
        return try takeRecord(end: end, next: scan.position)
    }

    // MARK: Records

    private mutating func takeRecord(end: Int, next: Int) throws(FormatError) -> [String] {
        var lineBreaks = 0
        // The record itself is a node; its fields are counted as they are made, so a record of
        // millions of empty fields (`,,,,…`) stops at the limit instead of after allocating them.
        try countNodes(1, at: recordStart)
        let fields = try buffer.withUnsafeBufferPointer { (b) throws(FormatError) in
            try parseRecord(b, recordStart..<end, lineBreaks: &lineBreaks)
        }
        nodeCount += fields.count
        line += 1 + lineBreaks
        recordStart = next
        scanPosition = next
        return fields
    }

    /// Adds `count` nodes, throwing when that passes `DecodingLimits/maxNodes`.
    private mutating func countNodes(_ count: Int, at index: Int) throws(FormatError) {
        nodeCount += count
        if nodeCount > limits.maxNodes { throw nodeLimitError(at: index, lineBreaks: 0) }
    }

    private func nodeLimitError(at index: Int, lineBreaks: Int) -> FormatError {
        FormatError.limitExceeded(format: CSVFormat.formatName, limit: "maxNodes", maximum: limits.maxNodes,
                                  location: .init(byteOffset: droppedBytes + index, line: line + lineBreaks))
    }

    /// Where the record starting at or before `position` ends (the index of its line break),
    /// where scanning stopped, and the quote state there.
    private static func findRecordEnd(in b: UnsafeBufferPointer<UInt8>, from position: Int, inQuotes: Bool,
                                      isFinished: Bool) -> (recordEnd: Int?, position: Int, inQuotes: Bool) {
        var i = position
        var quoted = inQuotes
        while i < b.count {
            // Skip eight bytes at a time while none of them can end a record or toggle quoting.
            if let base = b.baseAddress {
                while i &+ 8 <= b.count {
                    let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    let special = quoted ? Self.holds(word, .quote)
                        : Self.holds(word, .quote) | Self.holds(word, .lineFeed) | Self.holds(word, .carriageReturn)
                    if special != 0 { break }
                    i &+= 8
                }
                if i >= b.count { break }
            }
            let byte = b[i]
            if byte == .quote {
                quoted.toggle()
            } else if !quoted && (byte == .lineFeed || byte == .carriageReturn) {
                if byte == .carriageReturn {
                    if i + 1 == b.count && !isFinished { return (nil, i, quoted) } // a LF may follow
                    if i + 1 < b.count && b[i + 1] == .lineFeed { return (i, i + 2, false) }
                }
                return (i, i + 1, false)
            }
            i += 1
        }
        return (nil, i, quoted)
    }

    /// Non-zero when one of the eight bytes of `word` equals `byte`.
    private static func holds(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & 0x8080_8080_8080_8080
    }

    private func parseRecord(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                             lineBreaks: inout Int) throws(FormatError) -> [String] {
        var fields: [String] = []
        var i = range.lowerBound
        let end = range.upperBound
        var scratch: [UInt8] = []
        // The fields this record may still make (`nodeCount` already holds the record).
        let allowedFields = limits.maxNodes - nodeCount
        while true {
            if fields.count == allowedFields { throw nodeLimitError(at: i, lineBreaks: lineBreaks) }
            // Doubling past the fields the limit allows would reserve up to twice their memory.
            if fields.count == fields.capacity && fields.count > 1_024 {
                fields.reserveCapacity(min(fields.count * 2, allowedFields))
            }
            if i < end && b[i] == .quote {
                let opening = i
                i += 1
                var segmentStart = i
                scratch.removeAll(keepingCapacity: true)
                var escaped = false
                while true {
                    guard i < end else {
                        throw error(
                            .truncated, "the input ends inside a quoted field", at: opening, lineBreaks: lineBreaks)
                    }
                    let byte = b[i]
                    if byte == .quote {
                        if i + 1 < end && b[i + 1] == .quote {
                            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: b[segmentStart...i]))
                            escaped = true
                            i += 2
                            segmentStart = i
                            continue
                        }
                        break
                    }
                    if byte == .lineFeed || (byte == .carriageReturn && !(i + 1 < end && b[i + 1] == .lineFeed)) {
                        lineBreaks += 1
                    }
                    i += 1
                }
                if escaped {
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: b[segmentStart..<i]))
                    fields.append(try scratch.withUnsafeBufferPointer { (s) throws(FormatError) in
                        try decodeField(s, at: segmentStart)
                    })
                } else {
                    fields.append(try decodeField(UnsafeBufferPointer(rebasing: b[segmentStart..<i]), at: segmentStart))
                }
                i += 1
                if i < end && b[i] != .comma {
                    throw error(.malformed, "expected a comma or a line break after the closing quote",
                                at: i, lineBreaks: lineBreaks)
                }
            } else {
                let start = i
                while i < end && b[i] != .comma {
                    if b[i] == .quote {
                        throw error(
                            .malformed, "a quote inside an unquoted field (quote the whole field and double it)",
                            at: i, lineBreaks: lineBreaks)
                    }
                    i += 1
                }
                fields.append(try decodeField(UnsafeBufferPointer(rebasing: b[start..<i]), at: start))
            }
            guard i < end else { return fields }
            i += 1 // the comma
        }
    }

    private func decodeField(_ field: UnsafeBufferPointer<UInt8>, at start: Int) throws(FormatError) -> String {
        if charset == .utf8 {
            // ASCII eight bytes at a time; only fields with other bytes are validated in full.
            var i = 0
            if let base = field.baseAddress {
                while i &+ 8 <= field.count,
                      UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    i &+= 8
                }
            }
            while i < field.count && field[i] < 0x80 { i &+= 1 }
            if i < field.count, let bad = Charset.firstInvalidUTF8(UnsafeBufferPointer(rebasing: field[i...])) {
                throw FormatError(.invalidText, format: CSVFormat.formatName, "invalid UTF-8 in a field",
                                  location: .init(byteOffset: droppedBytes + start + i + bad, line: line))
            }
            return String(decoding: field, as: UTF8.self)
        }
        do {
            return try charset.decode(UnsafeRawBufferPointer(field), format: CSVFormat.formatName)
        } catch {
            var located = error
            located.location = .init(byteOffset: droppedBytes + start + (error.location?.byteOffset ?? 0), line: line)
            throw located
        }
    }

    private func error(_ code: FormatError.Code, _ message: String, at index: Int, lineBreaks: Int) -> FormatError {
        FormatError(code, format: CSVFormat.formatName, message,
                    location: .init(byteOffset: droppedBytes + index, line: line + lineBreaks))
    }
}

extension UInt8 {
    static let quote = UInt8(ascii: "\"")
    static let comma = UInt8(ascii: ",")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
}
