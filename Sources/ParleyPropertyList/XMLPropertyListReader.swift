import FoundationEssentials
import Parley

/// Reads XML property lists with a small tokenizer for the plist subset: the XML declaration,
/// a DOCTYPE (skipped, never fetched), comments, CDATA, the five predefined entities and
/// character references. No other entity is ever defined or expanded, so entity bombs and
/// external entities fail as undefined references.
struct XMLPropertyListReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: DecodingLimits
    var i = 0
    var nodes = 0

    static let format = "plist"

    enum Frame {
        case array([Value])
        case dictionary([Value.Object.Member], pendingKey: String?)
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    func error(_ message: String, at offset: Int? = nil) -> FormatError {
        let at = min(offset ?? i, bytes.count)
        var line = 1, column = 1
        for k in 0..<at {
            if bytes[k] == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        return FormatError(.malformed, format: Self.format, message, location: .init(byteOffset: at, line: line, column: column))
    }

    // MARK: Document

    mutating func read() throws(FormatError) -> Value {
        try skipMisc()
        var wrapped = false
        if lookingAt("<plist") {
            let (name, _, selfClosing) = try readTag()
            guard name == "plist" else { throw error("unknown element <\(name)>") }
            guard !selfClosing else { throw error("empty <plist/>") }
            wrapped = true
            try skipMisc()
        }
        guard lookingAt("<") && !lookingAt("</") else { throw error("no value in the property list") }
        let value = try readValue()
        try skipMisc()
        if wrapped {
            guard lookingAt("</") else { throw error("more than one root value") }
            let (name, closing, _) = try readTag()
            guard closing && name == "plist" else { throw error("expected </plist>, found <\(name)>") }
            try skipMisc()
        }
        guard i == bytes.count else { throw error("unexpected content after the property list") }
        return value
    }

    func lookingAt(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard i + count <= bytes.count else { return false }
        let p = text.utf8Start
        for k in 0..<count where bytes[i + k] != p[k] { return false }
        return true
    }

    mutating func skipWhitespace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }

    /// Skips whitespace, comments, processing instructions and a DOCTYPE.
    mutating func skipMisc() throws(FormatError) {
        while true {
            skipWhitespace()
            if lookingAt("<!--") {
                try skip(past: "-->")
            } else if lookingAt("<?") {
                try skip(past: "?>")
            } else if lookingAt("<!DOCTYPE") {
                // Skip the declaration and any internal subset; nothing in it is used.
                var depth = 0
                while i < bytes.count {
                    let byte = bytes[i]
                    i += 1
                    if byte == UInt8(ascii: "[") { depth += 1 }
                    if byte == UInt8(ascii: "]") { depth -= 1 }
                    if byte == UInt8(ascii: ">") && depth <= 0 { break }
                }
                if i >= bytes.count { throw error("unterminated DOCTYPE") }
            } else {
                return
            }
        }
    }

    mutating func skip(past terminator: StaticString) throws(FormatError) {
        let start = i
        while i < bytes.count {
            if lookingAt(terminator) { i += terminator.utf8CodeUnitCount; return }
            i += 1
        }
        throw error("unterminated markup", at: start)
    }

    /// Reads `<name …>`, `<name/>` or `</name>`; attributes are skipped.
    mutating func readTag() throws(FormatError) -> (name: String, closing: Bool, selfClosing: Bool) {
        let start = i
        guard i < bytes.count, bytes[i] == UInt8(ascii: "<") else { throw error("expected a tag") }
        i += 1
        var closing = false
        if i < bytes.count && bytes[i] == UInt8(ascii: "/") { closing = true; i += 1 }
        let nameStart = i
        while i < bytes.count, Self.isNameByte(bytes[i]) { i += 1 }
        guard i > nameStart else { throw error("expected an element name", at: start) }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<i]), as: UTF8.self)
        var quote: UInt8? = nil
        while i < bytes.count {
            let byte = bytes[i]
            if let q = quote {
                if byte == q { quote = nil }
                if byte == UInt8(ascii: "<") { throw error("'<' in an attribute value") }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                i += 1
                let selfClosing = bytes[i - 2] == UInt8(ascii: "/")
                return (name, closing, selfClosing && !closing)
            } else if byte == UInt8(ascii: "<") {
                throw error("unterminated tag <\(name)>", at: start)
            }
            i += 1
        }
        throw error("unterminated tag <\(name)>", at: start)
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
            || byte >= 0x80
    }

    /// Reads character data up to the closing tag `</name>` and consumes it.
    mutating func readText(closing name: String) throws(FormatError) -> String {
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error("unterminated <\(name)>") }
            let byte = bytes[i]
            if byte == UInt8(ascii: "<") {
                if lookingAt("<!--") { try skip(past: "-->"); continue }
                if lookingAt("<![CDATA[") {
                    i += 9
                    let start = i
                    try skip(past: "]]>")
                    out.append(contentsOf: bytes[start..<(i - 3)])
                    continue
                }
                let (tag, closing, _) = try readTag()
                guard closing, tag == name else { throw error("expected </\(name)>, found <\(closing ? "/" : "")\(tag)>") }
                return String(decoding: out, as: UTF8.self)
            }
            if byte == UInt8(ascii: "&") {
                try appendReference(to: &out)
                continue
            }
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                throw error("control character 0x\(String(byte, radix: 16)) in text")
            }
            if byte == 0x0D {
                // XML line-end normalisation: CRLF and CR become LF.
                out.append(0x0A)
                i += 1
                if i < bytes.count && bytes[i] == 0x0A { i += 1 }
                continue
            }
            out.append(byte)
            i += 1
        }
    }

    mutating func appendReference(to out: inout [UInt8]) throws(FormatError) {
        let start = i
        i += 1
        let nameStart = i
        while i < bytes.count && bytes[i] != UInt8(ascii: ";") && i - nameStart < 16 { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: ";") else { throw error("bare '&' or unterminated reference", at: start) }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<i]), as: UTF8.self)
        i += 1
        switch name {
        case "lt": out.append(UInt8(ascii: "<"))
        case "gt": out.append(UInt8(ascii: ">"))
        case "amp": out.append(UInt8(ascii: "&"))
        case "quot": out.append(UInt8(ascii: "\""))
        case "apos": out.append(UInt8(ascii: "'"))
        default:
            var scalarValue: UInt32?
            if name.hasPrefix("#x") { scalarValue = UInt32(name.dropFirst(2), radix: 16) }
            else if name.hasPrefix("#") { scalarValue = UInt32(name.dropFirst(), radix: 10) }
            else {
                throw FormatError(.forbidden, format: Self.format, "entity '&\(name);' is not expanded (only the predefined entities are)",
                                  location: error("", at: start).location)
            }
            guard let value = scalarValue, let scalar = Unicode.Scalar(value), value != 0 else {
                throw error("invalid character reference '&\(name);'", at: start)
            }
            out.append(contentsOf: String(scalar).utf8)
        }
    }

    // MARK: Values

    mutating func countNode() throws(FormatError) {
        nodes += 1
        if nodes > limits.maxNodes {
            throw FormatError.limitExceeded(format: Self.format, limit: "maxNodes", maximum: limits.maxNodes)
        }
    }

    /// Reads one value (and everything inside it) with an explicit stack of open containers.
    mutating func readValue() throws(FormatError) -> Value {
        var stack: [Frame] = []
        while true {
            try skipMisc()
            let tagStart = i
            let (name, closing, selfClosing) = try readTag()
            var finished: Value?
            if closing {
                guard let frame = stack.popLast() else { throw error("unexpected </\(name)>", at: tagStart) }
                switch (frame, name) {
                case (.array(let elements), "array"): finished = .array(elements)
                case (.dictionary(let members, let pending), "dict"):
                    if let pending { throw error("key '\(pending)' has no value", at: tagStart) }
                    // CoreFoundation writes a UID as <dict><key>CF$UID</key><integer>n</integer></dict>.
                    if members.count == 1, members[0].key == "CF$UID", case .integer(let id) = members[0].value {
                        finished = .tagged("uid", .integer(id))
                    } else {
                        finished = .object(Value.Object(members))
                    }
                default: throw error("mismatched </\(name)>", at: tagStart)
                }
            } else {
                try countNode()
                if case .dictionary(_, nil) = stack.last, name != "key" {
                    throw error("a dictionary value <\(name)> has no key", at: tagStart)
                }
                switch name {
                case "array", "dict":
                    if selfClosing {
                        finished = name == "array" ? .array([]) : .object([:])
                    } else {
                        guard stack.count + 1 <= limits.maxDepth else {
                            throw FormatError.limitExceeded(format: Self.format, limit: "maxDepth", maximum: limits.maxDepth,
                                                            actual: stack.count + 1, location: error("", at: tagStart).location)
                        }
                        stack.append(name == "array" ? .array([]) : .dictionary([], pendingKey: nil))
                        continue
                    }
                case "key":
                    guard case .dictionary(let members, nil) = stack.last else {
                        throw error("<key> outside a dictionary, or two keys in a row", at: tagStart)
                    }
                    let key = selfClosing ? "" : try readText(closing: "key")
                    stack[stack.count - 1] = .dictionary(members, pendingKey: key)
                    continue
                case "true", "false":
                    if !selfClosing {
                        let content = try readText(closing: name)
                        guard content.allSatisfy(\.isWhitespace) else { throw error("<\(name)> must be empty", at: tagStart) }
                    }
                    finished = .bool(name == "true")
                default:
                    let text = selfClosing ? "" : try readText(closing: name)
                    finished = try scalar(name, text, at: tagStart)
                }
            }
            guard let value = finished else { continue }
            switch stack.last {
            case nil:
                return value
            case .array(var elements):
                stack.removeLast()
                elements.append(value)
                stack.append(.array(elements))
            case .dictionary(var members, let pending):
                stack.removeLast()
                members.append(.init(key: pending ?? "", value: value))
                stack.append(.dictionary(members, pendingKey: nil))
            }
        }
    }

    /// A decimal (or `0x` hexadecimal) integer, optionally signed; `nil` when out of range.
    static func integer(_ text: String) -> Value? {
        var utf8 = Substring(text).utf8[...]
        var negative = false
        if let sign = utf8.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            utf8 = utf8.dropFirst()
        }
        var magnitude: UInt64 = 0
        var radix: UInt64 = 10
        if utf8.count > 2, utf8.first == UInt8(ascii: "0"), utf8.dropFirst().first.map({ $0 | 0x20 }) == UInt8(ascii: "x") {
            radix = 16
            utf8 = utf8.dropFirst(2)
        }
        guard !utf8.isEmpty else { return nil }
        for byte in utf8 {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt64(byte - 55)
            default: return nil
            }
            let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return .integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
        }
        return magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : .number(String(magnitude))
    }

    static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(text[first...last])
    }

    func scalar(_ name: String, _ text: String, at offset: Int) throws(FormatError) -> Value {
        switch name {
        case "string":
            return .string(text)
        case "integer":
            guard let integer = Self.integer(Self.trimmed(text)) else {
                throw error("'\(text)' is not an integer, or is outside -2^63 … 2^64-1", at: offset)
            }
            return integer
        case "real":
            let trimmed = Self.trimmed(text)
            switch trimmed.lowercased() {
            case "nan": return .float(.nan)
            case "inf", "+inf", "infinity", "+infinity": return .float(.infinity)
            case "-inf", "-infinity": return .float(-.infinity)
            default:
                guard let d = Double(trimmed), !trimmed.isEmpty,
                      trimmed.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 43 || $0 == 45 || $0 == 46 || $0 | 0x20 == 101 }) else {
                    throw error("'\(text)' is not a real", at: offset)
                }
                return .float(d)
            }
        case "date":
            guard let date = ISO8601Text.date(from: Self.trimmed(text)) else {
                throw error("'\(text)' is not a date", at: offset)
            }
            return .date(date)
        case "data":
            let compact = String(text.unicodeScalars.filter { !$0.properties.isWhitespace })
            guard let bytes = Base64Text.bytes(from: compact) else { throw error("<data> is not base64", at: offset) }
            return .bytes(bytes)
        default:
            throw error("unknown element <\(name)>", at: offset)
        }
    }
}
