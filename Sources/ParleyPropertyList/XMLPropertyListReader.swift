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

    /// An open `<array>` or `<dict>`.
    struct Frame {
        var isDictionary: Bool
        var elements: [Value] = []
        var members: [Value.Object.Member] = []
        /// A dictionary's last key, until its value is read.
        var pendingKey: String?
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    func error(_ message: String, at offset: Int? = nil) -> FormatError {
        let at = min(offset ?? i, bytes.count)
        return FormatError(.malformed, format: Self.format, message, location: .init(byteOffset: at, in: bytes))
    }

    // MARK: Document

    mutating func read() throws(FormatError) -> Value {
        try skipMisc()
        var wrapped = false
        if lookingAt("<plist") {
            let tag = try readTag()
            guard tag.element == .plist else { throw error("unknown element <\(name(tag))>") }
            guard !tag.selfClosing else { throw error("empty <plist/>") }
            wrapped = true
            try skipMisc()
        }
        guard lookingAt("<") && !lookingAt("</") else { throw error("no value in the property list") }
        let value = try readValue()
        try skipMisc()
        if wrapped {
            guard lookingAt("</") else { throw error("more than one root value") }
            let tag = try readTag()
            guard tag.closing && tag.element == .plist else { throw error("expected </plist>, found <\(name(tag))>") }
            try skipMisc()
        }
        guard i == bytes.count else { throw error("unexpected content after the property list") }
        return value
    }

    func lookingAt(_ text: StaticString) -> Bool { bytes.matches(text, at: i) }

    mutating func skipWhitespace() {
        while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
    }

    /// Skips whitespace, comments, processing instructions and a DOCTYPE.
    mutating func skipMisc() throws(FormatError) {
        while true {
            skipWhitespace()
            // Everything skipped here starts with `<!` or `<?`.
            guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "<"),
                bytes[i + 1] == UInt8(ascii: "!") || bytes[i + 1] == UInt8(ascii: "?")
            else { return }
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

    /// The elements of the property-list vocabulary; anything else is `other`.
    enum Element {
        case plist, array, dict, key, string, integer, real, date, data, `true`, `false`, other

        init(_ name: UnsafeBufferPointer<UInt8>) {
            switch name.isEmpty ? 0 : name[0] {
            case UInt8(ascii: "a"): self = name.equals("array") ? .array : .other
            case UInt8(ascii: "d"):
                self = name.equals("dict") ? .dict : name.equals("date") ? .date : name.equals("data") ? .data : .other
            case UInt8(ascii: "f"): self = name.equals("false") ? .false : .other
            case UInt8(ascii: "i"): self = name.equals("integer") ? .integer : .other
            case UInt8(ascii: "k"): self = name.equals("key") ? .key : .other
            case UInt8(ascii: "p"): self = name.equals("plist") ? .plist : .other
            case UInt8(ascii: "r"): self = name.equals("real") ? .real : .other
            case UInt8(ascii: "s"): self = name.equals("string") ? .string : .other
            case UInt8(ascii: "t"): self = name.equals("true") ? .true : .other
            default: self = .other
            }
        }
    }

    /// A start, end or empty-element tag.
    struct Tag {
        var element: Element
        /// Where the name is in the document, for messages.
        var nameRange: Range<Int>
        var closing: Bool
        var selfClosing: Bool
    }

    /// The name of `tag` as written.
    func name(_ tag: Tag) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[tag.nameRange]), as: UTF8.self)
    }

    /// Reads `<name …>`, `<name/>` or `</name>`; attributes are skipped.
    mutating func readTag() throws(FormatError) -> Tag {
        let start = i
        guard i < bytes.count, bytes[i] == UInt8(ascii: "<") else { throw error("expected a tag") }
        i += 1
        var closing = false
        if i < bytes.count && bytes[i] == UInt8(ascii: "/") { closing = true; i += 1 }
        let nameStart = i
        while i < bytes.count, Self.isNameByte(bytes[i]) { i += 1 }
        guard i > nameStart else { throw error("expected an element name", at: start) }
        let nameRange = nameStart..<i
        func unterminated() -> FormatError {
            error(
                "unterminated tag "
                    + "<\(String(decoding: UnsafeBufferPointer(rebasing: bytes[nameRange]), as: UTF8.self))>",
                at: start)
        }
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
                return Tag(element: Element(UnsafeBufferPointer(rebasing: bytes[nameRange])), nameRange: nameRange,
                           closing: closing, selfClosing: selfClosing && !closing)
            } else if byte == UInt8(ascii: "<") {
                throw unterminated()
            }
            i += 1
        }
        throw unterminated()
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: ":")
            || byte >= 0x80
    }

    /// Character data: a slice of the document when it has no references, CDATA, comments or
    /// carriage returns (the common case), or bytes rewritten into a buffer.
    enum Text {
        case slice(Range<Int>)
        case rewritten([UInt8])
    }

    /// Calls `body` with the UTF-8 of `text`.
    func withUTF8<R>(
        _ text: Text, _ body: (UnsafeBufferPointer<UInt8>) throws(FormatError) -> R
    ) throws(FormatError) -> R {
        switch text {
        case .slice(let range): return try body(UnsafeBufferPointer(rebasing: bytes[range]))
        case .rewritten(let out):
            return try out.withUnsafeBufferPointer { buffer throws(FormatError) in try body(buffer) }
        }
    }

    func string(_ text: Text) -> String {
        switch text {
        case .slice(let range): String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        case .rewritten(let out): String(decoding: out, as: UTF8.self)
        }
    }

    /// Reads character data up to the end tag of `element` and consumes it.
    mutating func readText(closing element: Tag) throws(FormatError) -> Text {
        let start = i
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || (byte < 0x20 && byte != 0x09 && byte != 0x0A) {
                break
            }
            i += 1
        }
        if i + 1 < bytes.count, bytes[i] == UInt8(ascii: "<"), bytes[i + 1] != UInt8(ascii: "!") {
            let end = i
            try readEndTag(of: element)
            return .slice(start..<end)
        }
        var out = Array(bytes[start..<i])
        try readRewrittenText(into: &out, closing: element)
        return .rewritten(out)
    }

    /// Consumes the end tag that must close `element`.
    mutating func readEndTag(of element: Tag) throws(FormatError) {
        let tag = try readTag()
        guard tag.closing, sameBytes(tag.nameRange, element.nameRange) else {
            throw error("expected </\(name(element))>, found <\(tag.closing ? "/" : "")\(name(tag))>")
        }
    }

    /// Whether the document holds the same bytes in `a` and in `b`.
    func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for k in 0..<a.count where bytes[a.lowerBound + k] != bytes[b.lowerBound + k] { return false }
        return true
    }

    /// The rest of character data that needs rewriting: references, CDATA sections, comments and
    /// line ends.
    mutating func readRewrittenText(into out: inout [UInt8], closing element: Tag) throws(FormatError) {
        while true {
            guard i < bytes.count else { throw error("unterminated <\(name(element))>") }
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
                try readEndTag(of: element)
                return
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
        guard i < bytes.count, bytes[i] == UInt8(ascii: ";") else {
            throw error("bare '&' or unterminated reference", at: start)
        }
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
                throw FormatError(
                    .forbidden, format: Self.format,
                    "entity '&\(name);' is not expanded (only the predefined entities are)",
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
            let tag = try readTag()
            let finished: Value
            if tag.closing {
                guard !stack.isEmpty else { throw error("unexpected </\(name(tag))>", at: tagStart) }
                let frame = stack.removeLast()
                switch (frame.isDictionary, tag.element) {
                case (false, .array): finished = .array(frame.elements)
                case (true, .dict):
                    if let pending = frame.pendingKey { throw error("key '\(pending)' has no value", at: tagStart) }
                    // CoreFoundation writes a UID as <dict><key>CF$UID</key><integer>n</integer></dict>.
                    let members = frame.members
                    if members.count == 1, members[0].key == "CF$UID", case .integer(let id) = members[0].value {
                        finished = .tagged("uid", .integer(id))
                    } else {
                        finished = .object(Value.Object(members))
                    }
                default: throw error("mismatched </\(name(tag))>", at: tagStart)
                }
            } else {
                try countNode()
                let top = stack.count - 1
                let inDictionary = top >= 0 && stack[top].isDictionary
                if inDictionary, stack[top].pendingKey == nil, tag.element != .key {
                    throw error("a dictionary value <\(name(tag))> has no key", at: tagStart)
                }
                switch tag.element {
                case .array, .dict:
                    if tag.selfClosing {
                        finished = tag.element == .array ? .array([]) : .object([:])
                    } else {
                        guard stack.count + 1 <= limits.maxDepth else {
                            throw FormatError.limitExceeded(
                                format: Self.format, limit: "maxDepth", maximum: limits.maxDepth,
                                actual: stack.count + 1, location: error("", at: tagStart).location)
                        }
                        stack.append(Frame(isDictionary: tag.element == .dict))
                        continue
                    }
                case .key:
                    guard inDictionary, stack[top].pendingKey == nil else {
                        throw error("<key> outside a dictionary, or two keys in a row", at: tagStart)
                    }
                    if stack[top].members.isEmpty { stack[top].members.reserveCapacity(8) }
                    stack[top].pendingKey = tag.selfClosing ? "" : string(try readText(closing: tag))
                    continue
                case .true, .false:
                    if !tag.selfClosing {
                        let isEmpty = try withUTF8(try readText(closing: tag)) { $0.allSatisfy(Self.isSpace) }
                        guard isEmpty else { throw error("<\(name(tag))> must be empty", at: tagStart) }
                    }
                    finished = .bool(tag.element == .true)
                default:
                    let text = tag.selfClosing ? Text.slice(i..<i) : try readText(closing: tag)
                    finished = try scalar(tag, text, at: tagStart)
                }
            }
            guard !stack.isEmpty else { return finished }
            let top = stack.count - 1
            if stack[top].isDictionary {
                stack[top].members.append(.init(key: stack[top].pendingKey ?? "", value: finished))
                stack[top].pendingKey = nil
            } else {
                stack[top].elements.append(finished)
            }
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `text` without leading and trailing XML white space.
    static func trimmed(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0, end = text.count
        while start < end, isSpace(text[start]) { start += 1 }
        while end > start, isSpace(text[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: text[start..<end])
    }

    /// A decimal (or `0x` hexadecimal) integer, optionally signed; `nil` when out of range.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Value? {
        var utf8 = text[...]
        var negative = false
        if let sign = utf8.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            utf8 = utf8.dropFirst()
        }
        var magnitude: UInt64 = 0
        var radix: UInt64 = 10
        if utf8.count > 2, utf8.first == UInt8(ascii: "0"),
            utf8.dropFirst().first.map({ $0 | 0x20 }) == UInt8(ascii: "x") {
            radix = 16
            utf8 = utf8.dropFirst(2)
        }
        guard !utf8.isEmpty else { return nil }
        for byte in utf8 {
            guard let value = ByteClass.hexDigitValue(byte), UInt64(value) < radix else { return nil }
            let digit = UInt64(value)
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

    /// `nan`, or `inf` and `infinity` with an optional sign, in any case: the words property
    /// lists use for the reals that are not finite.
    static func nonFiniteReal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !text.isEmpty, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(text[text.count - 1] | 0x20) else {
            return nil
        }
        let word = String(decoding: text, as: UTF8.self).lowercased()
        switch word {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: return nil
        }
    }

    func scalar(_ tag: Tag, _ text: Text, at offset: Int) throws(FormatError) -> Value {
        if tag.element == .string { return .string(string(text)) }
        return try withUTF8(text) { utf8 throws(FormatError) in
            let trimmed = Self.trimmed(utf8)
            func quoted() -> String { String(decoding: utf8, as: UTF8.self) }
            switch tag.element {
            case .integer:
                guard let integer = Self.integer(trimmed) else {
                    throw error("'\(quoted())' is not an integer, or is outside -2^63 … 2^64-1", at: offset)
                }
                return integer
            case .real:
                if let nonFinite = Self.nonFiniteReal(trimmed) { return .float(nonFinite) }
                guard !trimmed.isEmpty,
                    trimmed.allSatisfy({
                        ($0 >= 48 && $0 <= 57) || $0 == 43 || $0 == 45 || $0 == 46 || $0 | 0x20 == 101
                    }),
                    let d = Double(String(decoding: trimmed, as: UTF8.self))
                else {
                    throw error("'\(quoted())' is not a real", at: offset)
                }
                return .float(d)
            case .date:
                guard let date = ISO8601Text.date(fromUTF8: trimmed) else {
                    throw error("'\(quoted())' is not a date", at: offset)
                }
                return .date(date)
            case .data:
                guard let bytes = Base64Text.decode(utf8, skippingWhitespace: true) else {
                    throw error("<data> is not base64", at: offset)
                }
                return .bytes(bytes)
            default:
                throw error("unknown element <\(name(tag))>", at: offset)
            }
        }
    }
}
