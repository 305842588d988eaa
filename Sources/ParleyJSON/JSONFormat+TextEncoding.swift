import Parley

extension JSONFormat {
    /// How the bytes of a body are to be read.
    enum TextEncoding: Equatable {
        /// UTF-8 from this offset (3 after a UTF-8 byte-order mark).
        case utf8(skip: Int)
        /// Another charset: transcode to UTF-8 first.
        case transcode(Charset)
    }

    /// Chooses by the `charset` parameter, then a byte-order mark, then the position of zero
    /// bytes among the first four (RFC 4627 §3: JSON text starts with two ASCII characters, so
    /// UTF-16 and UTF-32 show a recognisable pattern), then UTF-8.
    static func textEncoding(of bytes: UnsafeBufferPointer<UInt8>, charset: String?) -> TextEncoding {
        if let charset, let declared = Charset(name: charset), declared != .utf8, declared != .ascii {
            return .transcode(declared)
        }
        if let charset, Charset(name: charset) == nil {
            return .transcode(.utf8)  // Charset.decodeText reports the unknown name
        }
        if let (marked, length) = Charset.byteOrderMark(in: UnsafeRawBufferPointer(bytes)) {
            return marked == .utf8 ? .utf8(skip: length) : .transcode(marked)
        }
        let n = bytes.count
        if n >= 4 {
            switch (bytes[0] == 0, bytes[1] == 0, bytes[2] == 0, bytes[3] == 0) {
            case (true, true, true, false): return .transcode(.utf32BigEndian)
            case (false, true, true, true): return .transcode(.utf32LittleEndian)
            case (true, false, true, false): return .transcode(.utf16BigEndian)
            case (false, true, false, true): return .transcode(.utf16LittleEndian)
            default: break
            }
        }
        if n >= 2 && n % 2 == 0 {
            if bytes[0] == 0 && bytes[1] != 0 { return .transcode(.utf16BigEndian) }
            if bytes[0] != 0 && bytes[1] == 0 { return .transcode(.utf16LittleEndian) }
        }
        return .utf8(skip: 0)
    }
}
