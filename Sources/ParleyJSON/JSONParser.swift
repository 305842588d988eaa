import Parley

/// A single-pass RFC 8259 parser over UTF-8 bytes.
///
/// Containers are tracked on an explicit stack (never the machine stack), children are
/// collected on move-only stacks and moved into their arrays when the container closes.
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
        /// Where this container's children start on the value stack.
        var valueStart: Int
        /// Where its keys start on the key stack (objects).
        var keyStart: Int
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
        let value = try parseValue()
        skipWhitespace()
        if position != count {
            throw unexpected("the end of input after the top-level value", at: position)
        }
        return value
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
        let values = MoveStack<Value>(capacity: 64)
        let keys = MoveStack<String>(capacity: 32)
        var frames: [Frame] = []
        frames.reserveCapacity(16)

        parsing: while true {
            // A value is expected at `position` (whitespace already skipped).
            guard position < count else { throw unexpected("a value", at: position) }
            try countNode()
            let byte = bytes[position]
            switch byte {
            case 0x7B: // {
                try checkDepth(frames.count)
                position += 1
                skipWhitespace()
                if position < count && bytes[position] == 0x7D {
                    position += 1
                    values.push(.object(Value.Object()))
                } else {
                    frames.append(Frame(isObject: true, valueStart: values.count, keyStart: keys.count))
                    keys.push(try parseKey())
                    continue parsing
                }
            case 0x5B: // [
                try checkDepth(frames.count)
                position += 1
                skipWhitespace()
                if position < count && bytes[position] == 0x5D {
                    position += 1
                    values.push(.array([]))
                } else {
                    frames.append(Frame(isObject: false, valueStart: values.count, keyStart: keys.count))
                    continue parsing
                }
            case 0x22: // "
                position += 1
                values.push(.string(try parseString()))
            case 0x74: // t
                try expectLiteral("true")
                values.push(.bool(true))
            case 0x66: // f
                try expectLiteral("false")
                values.push(.bool(false))
            case 0x6E: // n
                try expectLiteral("null")
                values.push(.null)
            case 0x2D, 0x30...0x39:
                values.push(try parseNumber())
            default:
                throw unexpected("a value", at: position)
            }

            // After a value: close containers, or move on to the next member or element.
            while let frame = frames.last {
                skipWhitespace()
                guard position < count else {
                    throw unexpected(frame.isObject ? "',' or '}'" : "',' or ']'", at: position)
                }
                let next = bytes[position]
                if next == 0x2C { // ,
                    position += 1
                    skipWhitespace()
                    if frame.isObject { keys.push(try parseKey()) }
                    continue parsing
                }
                if frame.isObject {
                    guard next == 0x7D else { throw unexpected("',' or '}'", at: position) }
                    position += 1
                    frames.removeLast()
                    values.push(.object(closeObject(frame, values: values, keys: keys)))
                } else {
                    guard next == 0x5D else { throw unexpected("',' or ']'", at: position) }
                    position += 1
                    frames.removeLast()
                    values.push(.array(closeArray(frame, values: values)))
                }
            }
            return values.pop()
        }
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
        guard position < count, bytes[position] == 0x22 else { throw unexpected("a string key", at: position) }
        position += 1
        let key = try parseString()
        skipWhitespace()
        guard position < count, bytes[position] == 0x3A else { throw unexpected("':'", at: position) }
        position += 1
        skipWhitespace()
        return key
    }

    func closeArray(_ frame: Frame, values: MoveStack<Value>) -> [Value] {
        var elements = values.popArray(from: frame.valueStart)
        if options.removesNullValues && options.removesNullArrayElements {
            elements.removeAll { $0.isNull }
        }
        return elements
    }

    func closeObject(_ frame: Frame, values: MoveStack<Value>, keys: MoveStack<String>) -> Value.Object {
        let n = values.count - frame.valueStart
        let valueBase = values.base + frame.valueStart
        let keyBase = keys.base + frame.keyStart
        var members = [Value.Object.Member](unsafeUninitializedCapacity: n) { buffer, initialized in
            let target = buffer.baseAddress!
            for i in 0..<n {
                (target + i).initialize(to: Value.Object.Member(key: (keyBase + i).move(), value: (valueBase + i).move()))
            }
            initialized = n
        }
        // The elements were moved out: forget them without deinitializing.
        values.forget(downTo: frame.valueStart)
        keys.forget(downTo: frame.keyStart)
        if options.removesNullValues {
            members.removeAll { $0.value.isNull }
        }
        return Value.Object(members)
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

extension MoveStack {
    /// Drops the top elements after they were moved out elsewhere.
    @inline(__always)
    func forget(downTo start: Int) {
        count = start
    }
}
