import Parley

/// A single-pass RFC 8259 parser over UTF-8 bytes.
///
/// It parses into a flat tape (``parseTape()``, what decoding uses) or, for
/// `JSONFormat/Options/removesNullValues`, straight into a value tree that holds every member
/// (``parseDocument()``); both share the routines for strings, numbers, literals and limits.
/// Containers are tracked on an explicit stack (never the machine stack); the tree's children
/// are collected on move-only stacks and moved into their arrays when the container closes.
/// Every error is a `FormatError` with the byte offset, line and column of the offending byte.
struct JSONParser {
    static let formatName = "json"

    let bytes: UnsafePointer<UInt8>
    let count: Int
    let options: JSONFormat.Options
    let maxDepth: Int
    let maxNodes: Int
    /// Added to reported byte offsets (a skipped byte-order mark).
    let offsetBase: Int
    var position = 0
    var nodes = 0
    var scratch: [UInt8] = []

    /// One open container.
    struct Frame {
        var isObject: Bool
        /// Where this container's children start on the member stack.
        var start: Int
    }

    init(bytes: UnsafeBufferPointer<UInt8>, options: JSONFormat.Options, limits: DecodingLimits, offsetBase: Int = 0) {
        // A zero-length buffer may have no base address; with `count` 0 nothing is ever read
        // through this stand-in.
        self.bytes = bytes.baseAddress ?? UnsafePointer(bitPattern: 0x10)!
        self.count = bytes.count
        self.options = options
        self.maxDepth = limits.maxDepth
        self.maxNodes = limits.maxNodes
        self.offsetBase = offsetBase
    }

    // MARK: Errors

    func error(_ code: FormatError.Code, _ message: String, at offset: Int) -> FormatError {
        var line = 1
        var lineStart = 0
        var i = 0
        let end = min(offset, count)
        while i < end {
            if bytes[i] == 0x0A { line += 1; lineStart = i + 1 }
            i += 1
        }
        return FormatError(code, format: Self.formatName, message,
                           location: .init(byteOffset: offset + offsetBase, line: line, column: offset - lineStart + 1))
    }

    /// `.truncated` at the end of input, `.malformed` elsewhere.
    func unexpected(_ expected: String, at offset: Int) -> FormatError {
        if offset >= count {
            return error(.truncated, "unexpected end of input, expected \(expected)", at: offset)
        }
        let byte = bytes[offset]
        let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        return error(.malformed, "unexpected \(shown), expected \(expected)", at: offset)
    }

    // MARK: Document

    @inline(__always)
    mutating func skipWhitespace() {
        while position < count {
            let b = bytes[position]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { position += 1 } else { return }
        }
    }

    /// Parses the whole input as one JSON text.
    mutating func parseDocument() throws(FormatError) -> Value {
        if let blank = try beginDocument() { return blank }
        let value = try parseValue()
        try endDocument()
        return value
    }

    /// Skips leading whitespace and checks what the document starts with. Returns the value
    /// of a blank body (by `JSONFormat/Options/blankBody`), or `nil` when a value follows.
    mutating func beginDocument() throws(FormatError) -> Value? {
        skipWhitespace()
        if position == count {
            switch options.blankBody {
            case .reject: throw error(.truncated, "the body holds no JSON value", at: position)
            case .value(let value): return value
            }
        }
        if !options.allowsFragments && bytes[position] != 0x7B && bytes[position] != 0x5B {
            throw error(.malformed, "the top-level value must be an object or array (fragments are not allowed)", at: position)
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

    @inline(__always)
    mutating func countNode() throws(FormatError) {
        nodes += 1
        if nodes > maxNodes {
            throw FormatError.limitExceeded(format: Self.formatName, limit: "maxNodes", maximum: maxNodes,
                                            location: error(.limitExceeded, "", at: position).location)
        }
    }

    /// Parses one value (with everything nested in it) starting at `position`, whitespace skipped.
    mutating func parseValue() throws(FormatError) -> Value {
        let stack = MemberStack(capacity: 64)
        var frames: [Frame] = []
        frames.reserveCapacity(16)
        var isObject = false  // whether the innermost open container is an object

        parsing: while true {
            // A value is expected at `position` (whitespace already skipped).
            guard position < count else { throw unexpected("a value", at: position) }
            try countNode()
            var value: Value
            switch bytes[position] {
            case 0x7B: // {
                try checkDepth(frames.count)
                position += 1
                skipWhitespace()
                if position < count && bytes[position] == 0x7D {
                    position += 1
                    value = .object(Value.Object())
                } else {
                    frames.append(Frame(isObject: true, start: stack.count))
                    isObject = true
                    stack.push(key: try parseKey(), value: .null)
                    continue parsing
                }
            case 0x5B: // [
                try checkDepth(frames.count)
                position += 1
                skipWhitespace()
                if position < count && bytes[position] == 0x5D {
                    position += 1
                    value = .array([])
                } else {
                    frames.append(Frame(isObject: false, start: stack.count))
                    isObject = false
                    continue parsing
                }
            case 0x22: // "
                position += 1
                value = .string(try parseString())
            case 0x74: // t
                try expectLiteral("true")
                value = .bool(true)
            case 0x66: // f
                try expectLiteral("false")
                value = .bool(false)
            case 0x6E: // n
                try expectLiteral("null")
                value = .null
            case 0x2D, 0x30...0x39:
                value = try parseNumber()
            default:
                throw unexpected("a value", at: position)
            }

            // Deliver the value to its container; close containers; move to the next child.
            while true {
                guard let frame = frames.last else { return value }
                if isObject {
                    stack.setTopValue(value)
                } else {
                    stack.push(key: "", value: value)
                }
                if try nextMember(inObject: isObject) {
                    if isObject { stack.push(key: try parseKey(), value: .null) }
                    continue parsing
                }
                if isObject {
                    var members = stack.popMembers(from: frame.start)
                    if options.removesNullValues { members.removeAll { $0.value.isNull } }
                    value = .object(Value.Object(members))
                } else {
                    var elements = stack.popValues(from: frame.start)
                    if options.removesNullValues && options.removesNullArrayElements { elements.removeAll { $0.isNull } }
                    value = .array(elements)
                }
                frames.removeLast()
                isObject = frames.last?.isObject ?? false
            }
        }
    }

    /// After a container's child: consumes `,` (and the whitespace after it) and returns
    /// `true` when another child follows, or consumes the closing `}` or `]` and returns `false`.
    @inline(__always)
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

    /// Throws when opening one more container would exceed `DecodingLimits/maxDepth`.
    @inline(__always)
    func checkDepth(_ open: Int) throws(FormatError) {
        if open >= maxDepth {
            throw FormatError.limitExceeded(format: Self.formatName, limit: "maxDepth", maximum: maxDepth,
                                            actual: open + 1, location: error(.limitExceeded, "", at: position).location)
        }
    }

    /// Parses `"key"` `:` and the whitespace after it, at `position` (whitespace skipped).
    @inline(__always)
    mutating func parseKey() throws(FormatError) -> String {
        try expectKeyQuote()
        let key = try parseString()
        try expectColon()
        return key
    }

    /// Consumes the opening quote of a key at `position`.
    @inline(__always)
    mutating func expectKeyQuote() throws(FormatError) {
        guard position < count, bytes[position] == 0x22 else { throw unexpected("a string key", at: position) }
        position += 1
    }

    /// Consumes the `:` after a key, with whitespace on both sides.
    @inline(__always)
    mutating func expectColon() throws(FormatError) {
        skipWhitespace()
        guard position < count, bytes[position] == 0x3A else { throw unexpected("':'", at: position) }
        position += 1
        skipWhitespace()
    }

    @inline(__always)
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
