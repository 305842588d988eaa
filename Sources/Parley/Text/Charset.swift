/// A character set Parley can decode text in without any C library.
///
/// Text decoding follows the `charset` parameter, then a byte-order mark, then the format's
/// default. Names are matched case-insensitively, with the IANA aliases in ``init(name:)``.
public struct Charset: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Hashable, Sendable { case utf8, ascii, latin1, windows1252, utf16, utf16LE, utf16BE, utf32LE, utf32BE }
    let kind: Kind

    /// UTF-8.
    public static let utf8 = Charset(kind: .utf8)
    /// US-ASCII (bytes above 0x7F are invalid).
    public static let ascii = Charset(kind: .ascii)
    /// ISO-8859-1 (Latin-1).
    public static let latin1 = Charset(kind: .latin1)
    /// windows-1252 (Latin-1 with printable characters in 0x80–0x9F).
    public static let windows1252 = Charset(kind: .windows1252)
    /// UTF-16, big-endian unless a byte-order mark says otherwise.
    public static let utf16 = Charset(kind: .utf16)
    /// UTF-16LE.
    public static let utf16LittleEndian = Charset(kind: .utf16LE)
    /// UTF-16BE.
    public static let utf16BigEndian = Charset(kind: .utf16BE)
    /// UTF-32LE.
    public static let utf32LittleEndian = Charset(kind: .utf32LE)
    /// UTF-32BE.
    public static let utf32BigEndian = Charset(kind: .utf32BE)

    /// The charset named `name` (`utf-8`, `us-ascii`, `iso-8859-1`, `latin1`, `windows-1252`,
    /// `cp1252`, `utf-16`, `utf-16le`, `utf-16be`, `utf-32le`, `utf-32be`, any case), or `nil`.
    public init?(name: String) {
        switch name.lowercased() {
        case "utf-8", "utf8", "unicode-1-1-utf-8": self = .utf8
        case "us-ascii", "ascii", "iso646-us", "ansi_x3.4-1968": self = .ascii
        case "iso-8859-1", "iso8859-1", "latin1", "l1", "iso_8859-1", "cp819": self = .latin1
        case "windows-1252", "cp1252", "x-cp1252": self = .windows1252
        case "utf-16": self = .utf16
        case "utf-16le": self = .utf16LittleEndian
        case "utf-16be": self = .utf16BigEndian
        case "utf-32le": self = .utf32LittleEndian
        case "utf-32be": self = .utf32BigEndian
        default: return nil
        }
    }

    private init(kind: Kind) { self.kind = kind }

    /// The IANA name.
    public var description: String {
        switch kind {
        case .utf8: "utf-8"
        case .ascii: "us-ascii"
        case .latin1: "iso-8859-1"
        case .windows1252: "windows-1252"
        case .utf16: "utf-16"
        case .utf16LE: "utf-16le"
        case .utf16BE: "utf-16be"
        case .utf32LE: "utf-32le"
        case .utf32BE: "utf-32be"
        }
    }

    /// The charset a byte-order mark at the start of `bytes` announces, and the mark's length.
    public static func byteOrderMark(in bytes: UnsafeRawBufferPointer) -> (Charset, Int)? {
        let b = bytes.bindMemory(to: UInt8.self)
        if b.count >= 4 && b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0 { return (.utf32LittleEndian, 4) }
        if b.count >= 4 && b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF { return (.utf32BigEndian, 4) }
        if b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { return (.utf8, 3) }
        if b.count >= 2 && b[0] == 0xFF && b[1] == 0xFE { return (.utf16LittleEndian, 2) }
        if b.count >= 2 && b[0] == 0xFE && b[1] == 0xFF { return (.utf16BigEndian, 2) }
        return nil
    }

    /// Decodes `bytes` (without a byte-order mark) into a string.
    ///
    /// - Throws: ``FormatError/Code/invalidText`` with the byte offset of the first invalid
    ///   sequence.
    public func decode(_ bytes: UnsafeRawBufferPointer, format: String = "text") throws(FormatError) -> String {
        let b = bytes.bindMemory(to: UInt8.self)
        func invalid(_ offset: Int) -> FormatError {
            FormatError(.invalidText, format: format, "invalid \(self) text",
                        location: .init(byteOffset: offset))
        }
        switch kind {
        case .utf8:
            if let offset = Self.firstInvalidUTF8(b) { throw invalid(offset) }
            return String(decoding: b, as: UTF8.self)
        case .ascii:
            if let offset = b.firstIndex(where: { $0 >= 0x80 }) { throw invalid(offset) }
            return String(decoding: b, as: UTF8.self)
        case .latin1:
            if Self.isASCII(b) { return String(decoding: b, as: UTF8.self) }
            return String(transcoding: b.count, maximumUTF8PerUnit: 2) { output in
                for byte in b { output.append(UInt32(byte)) }
            }
        case .windows1252:
            if Self.isASCII(b) { return String(decoding: b, as: UTF8.self) }
            var failure: Int?
            let text = String(transcoding: b.count, maximumUTF8PerUnit: 3) { output in
                for offset in b.indices {
                    let byte = b[offset]
                    if byte >= 0x80 && byte < 0xA0 {
                        let value = Self.windows1252High[Int(byte - 0x80)]
                        guard value != 0 else { failure = offset; return }
                        output.append(value)
                    } else {
                        output.append(UInt32(byte))
                    }
                }
            }
            if let failure { throw invalid(failure) }
            return text
        case .utf16, .utf16LE, .utf16BE:
            guard b.count % 2 == 0 else { throw invalid(b.count - 1) }
            let little = kind == .utf16LE
            var failure: Int?
            // A unit gives at most 3 UTF-8 bytes; a surrogate pair (2 units) gives 4.
            let text = String(transcoding: b.count / 2, maximumUTF8PerUnit: 3) { output in
                var i = 0
                let n = b.count
                func unit(at i: Int) -> UInt32 {
                    little ? UInt32(b[i]) | UInt32(b[i + 1]) << 8 : UInt32(b[i]) << 8 | UInt32(b[i + 1])
                }
                while i < n {
                    let first = unit(at: i)
                    if first & 0xF800 != 0xD800 {
                        output.append(first)
                        i += 2
                        continue
                    }
                    guard first < 0xDC00, i + 4 <= n else { failure = i; return }
                    let second = unit(at: i + 2)
                    guard second & 0xFC00 == 0xDC00 else { failure = i; return }
                    output.append(0x10000 + ((first - 0xD800) << 10 | (second - 0xDC00)))
                    i += 4
                }
            }
            if let failure { throw invalid(failure) }
            return text
        case .utf32LE, .utf32BE:
            guard b.count % 4 == 0 else { throw invalid(b.count - b.count % 4) }
            var failure: Int?
            let text = String(transcoding: b.count / 4, maximumUTF8PerUnit: 4) { output in
                var i = 0
                while i < b.count {
                    let value = kind == .utf32LE
                        ? UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
                        : UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
                    guard value <= 0x10FFFF, value & 0xFFFF_F800 != 0xD800 else { failure = i; return }
                    output.append(value)
                    i += 4
                }
            }
            if let failure { throw invalid(failure) }
            return text
        }
    }

    /// Whether every byte is below 0x80, checked eight bytes at a time.
    static func isASCII(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = b.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= b.count {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < b.count {
            if b[i] >= 0x80 { return false }
            i += 1
        }
        return true
    }

    /// The offset of the first byte that starts an invalid UTF-8 sequence, or `nil`.
    public static func firstInvalidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        while i < b.count {
            if b[i] < 0x80 {
                i += 1
                continue
            }
            guard case .success(let length) = utf8SequenceLength(in: b, at: i) else { return i }
            i += length
        }
        return nil
    }

    /// What makes a UTF-8 sequence invalid.
    public enum UTF8Fault: Error, Sendable, Hashable {
        /// The first byte starts no sequence (a continuation byte, 0xC0, 0xC1 or 0xF5 and up).
        case invalidLeadByte
        /// The input ends inside the sequence.
        case truncated
        /// A byte after the first is not a continuation byte.
        case invalidContinuation
        /// The sequence encodes no scalar value: overlong, a surrogate or beyond U+10FFFF.
        case invalidScalar
    }

    /// The length of the UTF-8 sequence that starts at `i` in `b` (with a byte of 0x80 or more),
    /// or what makes it invalid: the one UTF-8 validation every text reader uses.
    public static func utf8SequenceLength(in b: UnsafeBufferPointer<UInt8>, at i: Int) -> Result<Int, UTF8Fault> {
        let byte = b[i]
        let length: Int
        var minimum: UInt32
        var value: UInt32
        switch byte {
        case 0xC2...0xDF: length = 2; value = UInt32(byte & 0x1F); minimum = 0x80
        case 0xE0...0xEF: length = 3; value = UInt32(byte & 0x0F); minimum = 0x800
        case 0xF0...0xF4: length = 4; value = UInt32(byte & 0x07); minimum = 0x10000
        default: return .failure(.invalidLeadByte)
        }
        guard i + length <= b.count else { return .failure(.truncated) }
        for k in 1..<length {
            let continuation = b[i + k]
            guard continuation & 0xC0 == 0x80 else { return .failure(.invalidContinuation) }
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        if value < minimum || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) { return .failure(.invalidScalar) }
        return .success(length)
    }

    static let windows1252High: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]
}

extension Charset {
    /// Decodes a text body: the `charset` parameter of `mediaType` if it names a known charset,
    /// else a byte-order mark, else `defaultCharset`. A mark matching the declared charset is
    /// dropped.
    ///
    /// - Throws: ``FormatError/Code/invalidText`` for invalid bytes or
    ///   ``FormatError/Code/unsupportedMediaType`` for a charset Parley cannot decode.
    public static func decodeText(_ bytes: UnsafeRawBufferPointer, mediaType: MediaType,
                                  default defaultCharset: Charset = .utf8,
                                  format: String = "text") throws(FormatError) -> String {
        let mark = byteOrderMark(in: bytes)
        var charset = defaultCharset
        if let name = mediaType.charset {
            guard let declared = Charset(name: name) else {
                throw FormatError(.unsupportedMediaType, format: format, "unsupported charset '\(name)'")
            }
            charset = declared
            if declared == .utf16, let (marked, _) = mark, marked == .utf16LittleEndian || marked == .utf16BigEndian {
                charset = marked
            }
        } else if let (marked, _) = mark {
            charset = marked
        }
        var body = bytes
        if let (marked, length) = mark, marked == charset {
            body = UnsafeRawBufferPointer(rebasing: bytes[length...])
        }
        return try charset.decode(body, format: format)
    }

    /// Encodes `text` in this charset.
    ///
    /// - Throws: ``FormatError/Code/unsupportedValue`` when a character has no encoding here.
    public func encode(_ text: String, format: String = "text") throws(FormatError) -> [UInt8] {
        switch kind {
        case .utf8: return Array(text.utf8)
        case .utf16, .utf16BE, .utf16LE:
            var out: [UInt8] = []
            for unit in text.utf16 {
                if kind == .utf16LE {
                    out += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
                } else {
                    out += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
                }
            }
            return out
        case .utf32LE, .utf32BE:
            var out: [UInt8] = []
            for scalar in text.unicodeScalars {
                let v = scalar.value
                let be = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
                out += kind == .utf32BE ? be : be.reversed()
            }
            return out
        case .ascii, .latin1, .windows1252:
            var out: [UInt8] = []
            for scalar in text.unicodeScalars {
                let limit: UInt32 = kind == .ascii ? 0x80 : 0x100
                if scalar.value < limit && !(kind == .windows1252 && (0x80..<0xA0).contains(scalar.value)) {
                    out.append(UInt8(scalar.value))
                } else if kind == .windows1252, let k = Self.windows1252High.firstIndex(of: scalar.value),
                    scalar.value != 0 {
                    out.append(UInt8(0x80 + k))
                } else {
                    throw FormatError(.unsupportedValue, format: format, "'\(scalar)' has no \(self) encoding")
                }
            }
            return out
        }
    }
}

/// UTF-8 written straight into a new string's storage, one Unicode scalar value at a time.
struct UTF8Output {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    var count = 0

    /// Appends a scalar value the caller has checked (not a surrogate, at most 0x10FFFF).
    mutating func append(_ value: UInt32) {
        if value < 0x80 {
            buffer[count] = UInt8(value)
            count += 1
        } else if value < 0x800 {
            buffer[count] = UInt8(0xC0 | value >> 6)
            buffer[count + 1] = UInt8(0x80 | value & 0x3F)
            count += 2
        } else if value < 0x10000 {
            buffer[count] = UInt8(0xE0 | value >> 12)
            buffer[count + 1] = UInt8(0x80 | value >> 6 & 0x3F)
            buffer[count + 2] = UInt8(0x80 | value & 0x3F)
            count += 3
        } else {
            buffer[count] = UInt8(0xF0 | value >> 18)
            buffer[count + 1] = UInt8(0x80 | value >> 12 & 0x3F)
            buffer[count + 2] = UInt8(0x80 | value >> 6 & 0x3F)
            buffer[count + 3] = UInt8(0x80 | value & 0x3F)
            count += 4
        }
    }
}

extension String {
    /// A string built by `body` writing UTF-8 for at most `units` code units of
    /// `maximumUTF8PerUnit` bytes each, with no intermediate arrays.
    init(transcoding units: Int, maximumUTF8PerUnit: Int, _ body: (inout UTF8Output) -> Void) {
        self.init(unsafeUninitializedCapacity: Swift.max(units * maximumUTF8PerUnit, 1)) { buffer in
            var output = UTF8Output(buffer: buffer)
            body(&output)
            return output.count
        }
    }
}
