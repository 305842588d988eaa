import Parley

/// A single-pass RFC 8259 parser over UTF-8 bytes into a flat tape (``parseTape()``): the one
/// JSON parser, behind decoding to a value, Codable decoding and `JSONFormat/Options/removesNullValues`
/// (which builds its tree from the tape).
/// Containers are tracked on an explicit stack (never the machine stack).
/// Every error is a `FormatError` with the byte offset, line and column of the offending byte.
struct JSONParser {
    static let formatName = "json"

    /// The text being parsed, which the parser owns: strings with escapes are decoded in place
    /// (see ``decodeEscapedString(from:)``).
    let bytes: UnsafeMutablePointer<UInt8>
    /// The text as it was given, for error messages and locations (``bytes`` changes where
    /// strings with escapes were).
    let source: UnsafePointer<UInt8>
    let count: Int
    let maxDepth: Int
    let maxNodes: Int
    /// The zero bytes that must follow the text, readable: ``appendKey(to:)`` reads 16
    /// bytes from a key's start.
    static var padding: Int { 16 }

    /// Added to reported byte offsets (a skipped byte-order mark).
    let offsetBase: Int
    var position = 0

    /// Creates a parser of `bytes`, which ``padding`` zero bytes must follow and which the parser
    /// may change (it decodes escapes in place); `source` holds the same text, unchanged, for
    /// error locations.
    init(bytes: UnsafeMutableBufferPointer<UInt8>, source: UnsafeBufferPointer<UInt8>, limits: DecodingLimits,
         offsetBase: Int = 0) {
        precondition(bytes.count == source.count, "the parser's text and its source differ in length")
        // A zero-length buffer may have no base address; with `count` 0 nothing is ever read
        // through these stand-ins.
        self.bytes = bytes.baseAddress ?? UnsafeMutablePointer(bitPattern: 0x10)!
        self.source = source.baseAddress ?? UnsafePointer(bitPattern: 0x10)!
        self.count = bytes.count
        self.maxDepth = limits.maxDepth
        self.maxNodes = limits.maxNodes
        self.offsetBase = offsetBase
    }

    // MARK: Errors

    func error(_ code: FormatError.Code, _ message: String, at offset: Int) -> FormatError {
        var location = FormatError.Location(byteOffset: offset, in: UnsafeBufferPointer(start: source, count: count))
        location.byteOffset = offset + offsetBase
        return FormatError(code, format: Self.formatName, message, location: location)
    }

    /// `.truncated` at the end of input, `.malformed` elsewhere.
    func unexpected(_ expected: String, at offset: Int) -> FormatError {
        if offset >= count {
            return error(.truncated, "unexpected end of input, expected \(expected)", at: offset)
        }
        let byte = source[offset]
        let shown = byte >= 0x20 && byte < 0x7F
            ? "'\(Character(Unicode.Scalar(byte)))'"
            : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        return error(.malformed, "unexpected \(shown), expected \(expected)", at: offset)
    }

    // MARK: Document

    /// Skips whitespace at `position`. Most tokens have none before them: that test is kept
    /// small, so it is inlined, and the loop is only called when a byte may be whitespace.
    mutating func skipWhitespace() {
        guard position < count, bytes[position] <= 0x20 else { return }
        skipWhitespaceRun()
    }

    /// Skips the whitespace at `position`, byte by byte. Kept out of line, so that
    /// ``skipWhitespace()`` stays small enough to be inlined (it was called instead).
    @inline(never)
    mutating func skipWhitespaceRun() {
        while position < count {
            let b = bytes[position]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { position += 1 } else { return }
        }
    }

    /// Skips leading whitespace and checks what the document starts with, by `options`. Returns
    /// the value of a blank body (by `JSONFormat/Options/blankBody`), or `nil` when a value
    /// follows. (The options are an argument, not a property: one the parser kept was a copy of
    /// them per document.)
    mutating func beginDocument(_ options: JSONFormat.Options) throws(FormatError) -> Value? {
        skipWhitespace()
        if position == count {
            switch options.blankBody {
            case .reject: throw error(.truncated, "the body holds no JSON value", at: position)
            case .value(let value): return value
            }
        }
        if !options.allowsFragments && bytes[position] != 0x7B && bytes[position] != 0x5B {
            throw error(
                .malformed, "the top-level value must be an object or array (fragments are not allowed)", at: position)
        }
        return nil
    }

    /// Checks that nothing but whitespace follows the top-level value.
    mutating func endDocument() throws(FormatError) {
        skipWhitespace()
        if position != count {
            throw unexpected("the end of input after the top-level value", at: position)
        }
    }

    /// The error for a value past `DecodingLimits/maxNodes`.
    func nodeLimitExceeded() -> FormatError {
        FormatError.limitExceeded(format: Self.formatName, limit: "maxNodes", maximum: maxNodes,
                                  location: error(.limitExceeded, "", at: position).location)
    }

    /// After a container's child: consumes `,` (and the whitespace after it) and returns
    /// `true` when another child follows, or consumes the closing `}` or `]` and returns `false`.
    mutating func nextMember(inObject isObject: Bool) throws(FormatError) -> Bool {
        skipWhitespace()
        guard position < count else {
            throw unexpected(isObject ? "',' or '}'" : "',' or ']'", at: position)
        }
        let next = bytes[position]
        if next == 0x2C { // ,
            position += 1
            skipWhitespace()
            return true
        }
        guard next == (isObject ? 0x7D : 0x5D) else {
            throw unexpected(isObject ? "',' or '}'" : "',' or ']'", at: position)
        }
        position += 1
        return false
    }

    /// The error for opening one more container when `open` are open and that exceeds
    /// `DecodingLimits/maxDepth`.
    func depthLimitExceeded(open: Int) -> FormatError {
        FormatError.limitExceeded(format: Self.formatName, limit: "maxDepth", maximum: maxDepth,
                                  actual: open + 1, location: error(.limitExceeded, "", at: position).location)
    }

    /// Consumes the opening quote of a key at `position`.
    mutating func expectKeyQuote() throws(FormatError) {
        guard position < count, bytes[position] == 0x22 else { throw unexpected("a string key", at: position) }
        position += 1
    }

    /// Consumes the `:` after a key, with whitespace on both sides.
    mutating func expectColon() throws(FormatError) {
        skipWhitespace()
        guard position < count, bytes[position] == 0x3A else { throw unexpected("':'", at: position) }
        position += 1
        skipWhitespace()
    }

    mutating func expectLiteral(_ literal: StaticString) throws(FormatError) {
        let length = literal.utf8CodeUnitCount
        let text = literal.utf8Start
        var i = 0
        while i < length {
            guard position + i < count else {
                throw error(.truncated, "unexpected end of input inside '\(literal)'", at: position + i)
            }
            guard bytes[position + i] == text[i] else {
                throw error(.malformed, "invalid literal, expected '\(literal)'", at: position + i)
            }
            i += 1
        }
        position += length
    }
}
