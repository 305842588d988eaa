import Parley

/// Writes a `Value` as RFC 8259 JSON, iteratively (an explicit stack, never the machine
/// stack), so any depth of value is written without risk.
///
/// Values JSON has no type for are mapped: `Value/bytes(_:)` to a base64 string,
/// `Value/date(_:)` to an RFC 3339 UTC string, `Value/tagged(_:_:)` to its inner value.
struct JSONWriter {
    let options: JSONFormat.Options
    let output: ByteOutput

    struct Frame {
        var isObject: Bool
        var elements: [Value]
        var members: [Value.Object.Member]
        var index: Int
        var count: Int
    }

    init(options: JSONFormat.Options, capacityHint: Int = 1024) {
        self.options = options
        self.output = ByteOutput(capacity: capacityHint)
    }

    static func unsupported(_ message: String) -> FormatError {
        FormatError(.unsupportedValue, format: JSONParser.formatName, message)
    }

    func write(_ root: Value) throws(FormatError) {
        var stack: [Frame] = []
        var next = root
        while true {
            // Write `next`; containers open a frame instead.
            var value = next
            while case .tagged(_, let inner) = value { value = inner }
            switch value {
            case .null: output.append("null")
            case .bool(let b): output.append(b ? "true" : "false")
            case .integer(let i): output.append(decimal: i)
            case .float(let d): try writeFloat(d)
            case .number(let text): try writeNumber(text)
            case .string(let s): writeString(s)
            case .bytes(let b): writeString(Base64Text.string(from: b))
            case .date(let d):
                guard let text = ISO8601Text.string(from: d) else {
                    throw Self.unsupported(ISO8601Text.noTimestampMessage(for: d))
                }
                writeString(text)
            case .array(let elements):
                if elements.isEmpty {
                    output.append("[]")
                } else {
                    output.append(0x5B)
                    stack.append(
                        Frame(isObject: false, elements: elements, members: [], index: 0, count: elements.count))
                }
            case .object(let object):
                if object.isEmpty {
                    output.append("{}")
                } else {
                    output.append(0x7B)
                    var members = object.members
                    if options.sortsKeys {
                        members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                    }
                    stack.append(Frame(isObject: true, elements: [], members: members, index: 0, count: members.count))
                }
            case .tagged:
                break // unwrapped above
            }

            // Move to the next element or member, closing finished containers.
            while !stack.isEmpty {
                let top = stack.count - 1
                let index = stack[top].index
                if index < stack[top].count {
                    if index > 0 { output.append(0x2C) }
                    if options.isPrettyPrinted { newline(depth: stack.count) }
                    stack[top].index = index + 1
                    if stack[top].isObject {
                        let member = stack[top].members[index]
                        writeString(member.key)
                        if options.isPrettyPrinted { output.append(": ") } else { output.append(0x3A) }
                        next = member.value
                    } else {
                        next = stack[top].elements[index]
                    }
                    break
                }
                let isObject = stack[top].isObject
                stack.removeLast()
                if options.isPrettyPrinted { newline(depth: stack.count) }
                output.append(isObject ? 0x7D : 0x5D)
            }
            // An empty stack here means the top-level value is complete.
            if stack.isEmpty { return }
        }
    }

    private func newline(depth: Int) {
        output.append(0x0A)
        for _ in 0..<depth { output.append("  ") }
    }

    private func writeFloat(_ d: Double) throws(FormatError) {
        guard d.isFinite else { throw Self.unsupported("JSON has no representation for \(d)") }
        // Swift's description is the shortest text that round-trips, and keeps ".0" on integral
        // values ("1.0", "1e+16"), so a float never reads back as an integer.
        output.append(contentsOf: d.description)
    }

    private func writeNumber(_ text: String) throws(FormatError) {
        guard Self.isJSONNumber(text) else {
            throw Self.unsupported("'\(text.prefix(40))' is not a JSON number")
        }
        output.append(contentsOf: text)
    }

    /// Whether `text` matches the RFC 8259 `number` production exactly.
    static func isJSONNumber(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { b -> Bool in
            var i = 0
            func digits() -> Int {
                let start = i
                while i < b.count, b[i] &- 0x30 < 10 { i += 1 }
                return i - start
            }
            if i < b.count && b[i] == 0x2D { i += 1 }
            guard i < b.count else { return false }
            if b[i] == 0x30 { i += 1 } else if digits() == 0 { return false }
            if i < b.count && b[i] == 0x2E {
                i += 1
                if digits() == 0 { return false }
            }
            if i < b.count && b[i] | 0x20 == 0x65 {
                i += 1
                if i < b.count && (b[i] == 0x2B || b[i] == 0x2D) { i += 1 }
                if digits() == 0 { return false }
            }
            return i == b.count
        }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Writes a quoted string, escaping `"`, `\` and control characters (RFC 8259 §7).
    func writeString(_ string: String) {
        var string = string
        string.withUTF8 { b in
            output.reserve(b.count + 2)
            output.append(0x22)
            var runStart = 0
            var i = 0
            let n = b.count
            while i < n {
                let byte = b[i]
                if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
                    i += 1
                    continue
                }
                if i > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: b[runStart..<i])) }
                switch byte {
                case 0x22: output.append("\\\"")
                case 0x5C: output.append("\\\\")
                case 0x0A: output.append("\\n")
                case 0x0D: output.append("\\r")
                case 0x09: output.append("\\t")
                case 0x08: output.append("\\b")
                case 0x0C: output.append("\\f")
                default:
                    output.append("\\u00")
                    output.append(Self.hexDigits.utf8Start[Int(byte >> 4)])
                    output.append(Self.hexDigits.utf8Start[Int(byte & 0xF)])
                }
                i += 1
                runStart = i
            }
            if n > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: b[runStart..<n])) }
            output.append(0x22)
        }
    }
}
