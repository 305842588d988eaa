import Parley

/// Reads raw HTTP/1.x responses as `curl -i` writes them: one or more responses in a file
/// (redirect chains), CRLF or bare LF line ends, chunked transfer coding, and a
/// `Content-Length` that disagrees with the bytes (reported, never trusted blindly).
struct RawHTTPReader {
    let path: String

    /// Whether `bytes` at `offset` start a status line: `HTTP/` digit, then a space or `.`.
    static func startsStatusLine(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        let prefix: [UInt8] = Array("HTTP/".utf8)
        guard offset + prefix.count + 1 < bytes.count else { return false }
        for (i, byte) in prefix.enumerated() where bytes[offset + i] != byte { return false }
        let digit = bytes[offset + prefix.count]
        return digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9")
    }

    func exchanges(in data: [UInt8], start: Int) throws(RecordingError) -> [RecordedExchange] {
        let result: Result<[RecordedExchange], RecordingError> = data.withUnsafeBufferPointer { bytes in
            var responses: [RecordedExchange] = []
            var offset = start
            while offset < bytes.count {
                // Blank lines between messages are not content.
                while offset < bytes.count, bytes[offset] == 0x0D || bytes[offset] == 0x0A { offset += 1 }
                guard offset < bytes.count else { break }
                guard Self.startsStatusLine(bytes, at: offset) else {
                    return .failure(RecordingError(.malformed, path: path,
                                                   "byte \(offset): expected a status line such as \"HTTP/1.1 200 OK\""))
                }
                switch message(bytes, at: offset, index: responses.count) {
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

    private func message(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int,
                         index: Int) -> Result<(RecordedExchange, Int), RecordingError> {
        guard let (statusRange, afterStatus) = line(bytes, from: start) else {
            return .failure(RecordingError(.malformed, path: path, "byte \(start): empty status line"))
        }
        let statusLine = String(decoding: UnsafeBufferPointer(rebasing: bytes[statusRange]), as: UTF8.self)
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, let code = Int(parts[1]), (100...999).contains(code) else {
            return .failure(RecordingError(.malformed, path: path, "byte \(start): status line \"\(statusLine)\" has no status code"))
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
                headers.fields[last].value += " " + text.trimmingSpaces()  // obsolete line folding
                continue
            }
            guard let colon = text.firstIndex(of: ":") else {
                return .failure(RecordingError(.malformed, path: path,
                                               "byte \(range.lowerBound): header line \"\(text)\" has no colon"))
            }
            headers.append(name: String(text[..<colon]).trimmingSpaces(),
                           value: String(text[text.index(after: colon)...]).trimmingSpaces())
        }

        var notes: [Finding] = []
        let bodyStart = offset
        // Interim (1xx) responses carry no body.
        if (100..<200).contains(code) {
            return .success((exchange(index, code, reason, version, headers, [], notes), bodyStart))
        }
        let nextMessage = nextStatusLine(bytes, from: bodyStart)
        if headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            if let (body, end) = dechunk(bytes, from: bodyStart, limit: nextMessage) {
                return .success((exchange(index, code, reason, version, headers, body, notes), end))
            }
            notes.append(Finding(.chunkFraming, "Transfer-Encoding says chunked but the body is not chunk-framed; read as it is"))
        }
        var end = nextMessage
        if let declared = headers["Content-Length"].flatMap({ Int($0) }) {
            let declaredEnd = bodyStart + declared
            if declaredEnd <= bytes.count, declaredEnd == nextMessage || startsAfterBlankLines(bytes, declaredEnd) {
                end = declaredEnd
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

    /// The start of the next status line at the beginning of a line, or the end of the data.
    private func nextStatusLine(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
        var position = offset
        while position < bytes.count {
            if (position == offset || bytes[position - 1] == 0x0A), Self.startsStatusLine(bytes, at: position),
               looksLikeStatusLine(bytes, at: position) {
                return position
            }
            position += 1
        }
        return bytes.count
    }

    /// `HTTP/d.d ddd` or `HTTP/d ddd`: stricter than ``startsStatusLine`` so a body line that
    /// starts with "HTTP/" is not mistaken for the next message.
    private func looksLikeStatusLine(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        var p = offset + 5
        let isDigit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
        guard p < bytes.count, isDigit(bytes[p]) else { return false }
        p += 1
        if p + 1 < bytes.count, bytes[p] == UInt8(ascii: "."), isDigit(bytes[p + 1]) { p += 2 }
        guard p + 3 < bytes.count, bytes[p] == 0x20 else { return false }
        return isDigit(bytes[p + 1]) && isDigit(bytes[p + 2]) && isDigit(bytes[p + 3])
    }

    /// Undoes chunked framing (RFC 9112 §7.1); `nil` when the bytes are not chunk-framed.
    private func dechunk(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> ([UInt8], Int)? {
        var body: [UInt8] = []
        var offset = start
        while true {
            guard let (range, next) = line(bytes, from: offset), next <= limit || next == bytes.count else { return nil }
            let sizeText = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                .split(separator: ";", maxSplits: 1).first.map { String($0).trimmingSpaces() } ?? ""
            guard !sizeText.isEmpty, sizeText.count <= 16, let size = Int(sizeText, radix: 16), size >= 0 else { return nil }
            offset = next
            if size == 0 {
                // Trailer fields up to an empty line.
                while let (trailer, after) = line(bytes, from: offset) {
                    offset = after
                    if trailer.isEmpty { break }
                }
                return (body, offset)
            }
            guard offset + size <= bytes.count else { return nil }
            body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset..<offset + size]))
            offset += size
            guard let (rest, after) = line(bytes, from: offset), rest.isEmpty else { return nil }
            offset = after
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
