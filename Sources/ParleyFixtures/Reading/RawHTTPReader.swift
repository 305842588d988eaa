import Parley
import ParleyHTTP

/// Reads raw HTTP/1.x responses as `curl -i` writes them: one or more responses in a file
/// (redirect chains), CRLF or bare LF line ends, chunked transfer coding, and a
/// `Content-Length` that disagrees with the bytes (reported, never trusted blindly).
///
/// Every length and chunk size read from the file goes through `CheckedArithmetic`: a
/// negative, signed or overflowing number is no length, and a length is compared with the bytes
/// left rather than added to an offset. Finding where the next message starts is one pass over
/// the file however many messages it holds.
///
/// Framing errors are errors (RFC 9112 §6.3, `Finding.Kind.invalidFraming`): a `Content-Length`
/// that is not a length, or one or a chunk size declaring more than twice the bytes of the whole
/// recording (no hand edit is that far off). A `Content-Length` that is merely off (a hand-edited body) is a
/// `lengthMismatch` warning, and a chunked label on a body stored decoded a `chunkFraming` note.
package struct RawHTTPReader {
    let path: String

    /// Whether `bytes` at `offset` start a status line: `HTTP/` digit, then a space or `.`.
    static func startsStatusLine(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        let prefix: [UInt8] = Array("HTTP/".utf8)
        guard CheckedArithmetic.fits(prefix.count + 2, in: bytes.count, from: offset) else { return false }
        for (i, byte) in prefix.enumerated() where bytes[offset + i] != byte { return false }
        let digit = bytes[offset + prefix.count]
        return digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9")
    }

    func exchanges(in data: [UInt8], start: Int) throws(RecordingError) -> [RecordedExchange] {
        let result: Result<[RecordedExchange], RecordingError> = data.withUnsafeBufferPointer { bytes in
            var responses: [RecordedExchange] = []
            var scan = StatusLineScan()
            var offset = start
            while offset < bytes.count {
                // Blank lines between messages are not content.
                while offset < bytes.count, bytes[offset] == 0x0D || bytes[offset] == 0x0A { offset += 1 }
                guard offset < bytes.count else { break }
                guard Self.startsStatusLine(bytes, at: offset) else {
                    return .failure(RecordingError(.malformed, path: path,
                                                   "byte \(offset): expected a status line " +
                                                   "such as \"HTTP/1.1 200 OK\""))
                }
                switch message(bytes, at: offset, index: responses.count, scan: &scan) {
                case .success(let (exchange, next)):
                    responses.append(exchange)
                    offset = next
                case .failure(let error):
                    return .failure(error)
                }
            }
            return .success(responses)
        }
        return try result.get()
    }

    /// One line from `offset`: its content without the line end, and where the next line starts.
    private func line(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> (Range<Int>, Int)? {
        guard offset < bytes.count else { return nil }
        var end = offset
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        let next = min(end + 1, bytes.count)
        let contentEnd = end > offset && bytes[end - 1] == 0x0D ? end - 1 : end
        return (offset..<contentEnd, next)
    }

    private func message(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, index: Int,
                         scan: inout StatusLineScan) -> Result<(RecordedExchange, Int), RecordingError> {
        guard let (statusRange, afterStatus) = line(bytes, from: start) else {
            return .failure(RecordingError(.malformed, path: path, "byte \(start): empty status line"))
        }
        let statusLine = String(decoding: UnsafeBufferPointer(rebasing: bytes[statusRange]), as: UTF8.self)
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, let code = CheckedArithmetic.nonNegativeDecimal(parts[1]),
              (100...999).contains(code) else {
            return .failure(RecordingError(.malformed, path: path,
                                           "byte \(start): status line \"\(statusLine)\" has no status code"))
        }
        let version = String(parts[0])
        let reason = parts.count > 2 ? String(parts[2]) : ""

        var headers = RecordedFields()
        var offset = afterStatus
        while let (range, next) = line(bytes, from: offset) {
            offset = next
            if range.isEmpty { break }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            if let first = text.first, first == " " || first == "\t", let last = headers.fields.indices.last {
                headers.fields[last].value += " " + text.trimmingSpacesAndTabs()  // obsolete line folding
                continue
            }
            guard let colon = text.firstIndex(of: ":") else {
                return .failure(RecordingError(.malformed, path: path,
                                               "byte \(range.lowerBound): header line \"\(text)\" has no colon"))
            }
            headers.append(name: String(text[..<colon]).trimmingSpacesAndTabs(),
                           value: String(text[text.index(after: colon)...]).trimmingSpacesAndTabs())
        }

        var notes: [Finding] = []
        let bodyStart = offset
        // Interim (1xx) responses carry no body.
        if (100..<200).contains(code) {
            return .success((exchange(index, code, reason, version, headers, [], notes), bodyStart))
        }
        let nextMessage = scan.nextStatusLine(in: bytes, from: bodyStart)
        if headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            switch dechunk(bytes, from: bodyStart, limit: nextMessage) {
            case .body(let body, let end):
                return .success((exchange(index, code, reason, version, headers, body, notes), end))
            case .oversizedChunk(let sizeText, let remaining):
                notes.append(Finding(.invalidFraming,
                                     "chunk size \"\(sizeText.prefix(40))\" is more than twice what the whole " +
                                     "recording holds (\(remaining) bytes follow it; RFC 9112 §6.3: the message " +
                                     "cannot be framed); read as it is"))
            case .notChunked:
                notes.append(Finding(.chunkFraming,
                                     "Transfer-Encoding says chunked but the body is not chunk-framed; read as it is"))
            }
        }
        var end = nextMessage
        let lengthText = headers["Content-Length"]
        let declaredLength = lengthText.flatMap { CheckedArithmetic.nonNegativeDecimal($0) }
        if let lengthText, declaredLength == nil {
            notes.append(Finding(.invalidFraming,
                                 "Content-Length \"\(lengthText.prefix(40))\" is not a length (digits only, at most " +
                                 "\(Int.max); RFC 9112 §6.3: the message cannot be framed); the body is read up to " +
                                 "the next message"))
        }
        if let declared = declaredLength, Self.isBeyondRecording(declared, bytes.count) {
            notes.append(Finding(.invalidFraming,
                                 "Content-Length is \(declared), more than twice the \(bytes.count) bytes of the " +
                                 "whole recording (RFC 9112 §6.3: the message cannot be framed); the body is read "
                                 + "up to the next message"))
        } else if let declared = declaredLength {
            if CheckedArithmetic.fits(declared, in: bytes.count, from: bodyStart),
               bodyStart + declared == nextMessage || startsAfterBlankLines(bytes, bodyStart + declared) {
                end = bodyStart + declared
            } else {
                // Trailing line ends before the next message belong to the framing, not the body.
                var trimmed = end
                if trimmed < bytes.count {
                    if trimmed > bodyStart, bytes[trimmed - 1] == 0x0A { trimmed -= 1 }
                    if trimmed > bodyStart, bytes[trimmed - 1] == 0x0D { trimmed -= 1 }
                }
                end = trimmed
                notes.append(Finding(.lengthMismatch,
                                     "Content-Length is \(declared) but \(end - bodyStart) bytes follow the header"))
            }
        }
        let body = Array(bytes[bodyStart..<end])
        return .success((exchange(index, code, reason, version, headers, body, notes), max(end, bodyStart)))
    }

    private func exchange(_ index: Int, _ code: Int, _ reason: String, _ version: String, _ headers: RecordedFields,
                          _ body: [UInt8], _ notes: [Finding]) -> RecordedExchange {
        let response = RecordedResponse(status: code, reason: reason, httpVersion: version, headers: headers,
                                        body: body, readingNotes: notes)
        // A raw capture holds no request; the method is curl's default and the URL unknown.
        return RecordedExchange(index: index, request: RecordedRequest(method: "GET", url: ""), response: response)
    }

    private func startsAfterBlankLines(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
        var offset = offset
        while offset < bytes.count, bytes[offset] == 0x0D || bytes[offset] == 0x0A { offset += 1 }
        return offset == bytes.count || Self.startsStatusLine(bytes, at: offset)
    }

    /// Finds where the next message starts. Messages are read front to back, so each search
    /// starts at or after the previous one; the last answer is kept and reused while it still
    /// lies ahead, and the whole file is scanned once however many messages it holds (a message
    /// whose loose status line the search skips, `HTTP/1x 200`, no longer rescans the rest of the
    /// file).
    package struct StatusLineScan {
        /// Where the last search started, and what it found (a position or the end of the data).
        private var searchedFrom = Int.max
        private var found = 0
        /// Positions looked at so far, over all searches: at most the length of the data.
        package private(set) var positionsExamined = 0

        package init() {}

        /// The start of the first status line at the beginning of a line at or after `offset`
        /// (itself the start of a line), or the end of the data.
        package mutating func nextStatusLine(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
            if searchedFrom <= offset, found >= offset { return found }
            var position = offset
            while position < bytes.count {
                if (position == 0 || bytes[position - 1] == 0x0A), RawHTTPReader.startsStatusLine(bytes, at: position),
                   RawHTTPReader.looksLikeStatusLine(bytes, at: position) {
                    break
                }
                position += 1
            }
            positionsExamined += position - offset
            searchedFrom = offset
            found = position
            return position
        }
    }

    /// `HTTP/d.d ddd` or `HTTP/d ddd`: stricter than ``startsStatusLine`` so a body line that
    /// starts with "HTTP/" is not mistaken for the next message.
    static func looksLikeStatusLine(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        var p = offset + 5
        let isDigit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
        guard p < bytes.count, isDigit(bytes[p]) else { return false }
        p += 1
        if p + 1 < bytes.count, bytes[p] == UInt8(ascii: "."), isDigit(bytes[p + 1]) { p += 2 }
        guard p + 3 < bytes.count, bytes[p] == 0x20 else { return false }
        return isDigit(bytes[p + 1]) && isDigit(bytes[p + 2]) && isDigit(bytes[p + 3])
    }

    /// What undoing chunked framing found.
    private enum Dechunked {
        /// The body and the offset after the last chunk's trailer.
        case body([UInt8], end: Int)
        /// A chunk size that is hexadecimal but beyond the whole recording (or `Int`).
        case oversizedChunk(String, remaining: Int)
        /// The bytes are not chunk-framed (a capture that stored the body decoded).
        case notChunked
    }

    /// Undoes chunked framing (RFC 9112 §7.1).
    private func dechunk(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> Dechunked {
        guard let (body, end) = dechunkedBody(bytes, from: start, limit: limit) else {
            return oversizedChunk(bytes, from: start) ?? .notChunked
        }
        return .body(body, end: end)
    }

    /// Whether a declared length cannot be a hand edit's mistake: more than twice the bytes of the
    /// whole recording.
    static func isBeyondRecording(_ declared: Int, _ recordingBytes: Int) -> Bool {
        declared / 2 > recordingBytes
    }

    /// The first chunk-size line from `start` whose size overflows or is beyond the recording
    /// (``isBeyondRecording(_:_:)``).
    private func oversizedChunk(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Dechunked? {
        var offset = start
        while let (range, next) = line(bytes, from: offset) {
            let sizeText = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                .split(separator: ";", maxSplits: 1).first.map { String($0).trimmingSpacesAndTabs() } ?? ""
            // A decoded body may start with a word of hex letters ("cafe"); a size has a digit.
            guard !sizeText.isEmpty,
                  sizeText.utf8.allSatisfy({ $0 < 0x80 && Character(UnicodeScalar($0)).isHexDigit }) else {
                return nil
            }
            let size = CheckedArithmetic.nonNegativeHexadecimal(sizeText)
            let hasDigit = sizeText.utf8.contains { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            if size == nil || (hasDigit && Self.isBeyondRecording(size!, bytes.count)) {
                return .oversizedChunk(sizeText, remaining: bytes.count - next)
            }
            guard let size else { return nil }
            guard CheckedArithmetic.fits(size, in: bytes.count, from: next) else { return nil }
            guard size > 0, let (rest, after) = line(bytes, from: next + size), rest.isEmpty else { return nil }
            offset = after
        }
        return nil
    }

    /// The body of chunk-framed bytes; `nil` when they are not chunk-framed.
    private func dechunkedBody(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> ([UInt8], Int)? {
        var body: [UInt8] = []
        var offset = start
        while true {
            guard let (range, next) = line(bytes, from: offset), next <= limit || next == bytes.count else {
                return nil
            }
            let sizeText = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                .split(separator: ";", maxSplits: 1).first.map { String($0).trimmingSpacesAndTabs() } ?? ""
            guard let size = CheckedArithmetic.nonNegativeHexadecimal(sizeText) else { return nil }
            offset = next
            if size == 0 {
                // Trailer fields up to an empty line.
                while let (trailer, after) = line(bytes, from: offset) {
                    offset = after
                    if trailer.isEmpty { break }
                }
                return (body, offset)
            }
            guard CheckedArithmetic.fits(size, in: bytes.count, from: offset) else { return nil }
            body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset..<offset + size]))
            offset += size
            guard let (rest, after) = line(bytes, from: offset), rest.isEmpty else { return nil }
            offset = after
        }
    }
}
