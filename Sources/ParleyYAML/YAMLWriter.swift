import FoundationEssentials
import Parley

/// Writes one value as a block-style YAML document, with an explicit stack (no recursion).
///
/// Mappings are `key: value` lines, sequences `- item` lines indented two spaces under their
/// key; empty containers are `[]` and `{}`; a sequence or mapping inside a sequence starts on
/// the dash's line (`- - a`, `- key: value`). Keys longer than 1,000 bytes as written (quotes
/// and escapes included) use the explicit `? key` form, since YAML caps implicit keys at 1,024
/// characters.
struct YAMLWriter {
    /// A container being written.
    private struct Frame {
        var elements: [Value] = []
        var members: [Value.Object.Member] = []
        var isMapping: Bool
        var index = 0
        var indent: Int
        /// Whether the first entry continues the current line (after `- `).
        var continuesLine: Bool

        var count: Int { isMapping ? members.count : elements.count }
    }

    static let maxImplicitKeyBytes = 1_000

    let format: String
    private(set) var output: [UInt8] = []
    private var stack: [Frame] = []

    init(format: String) {
        self.format = format
        output.reserveCapacity(256)
    }

    /// Writes `value` as the whole document.
    ///
    /// - Throws: ``FormatError/Code/unsupportedValue`` for a tag on a tagged value, or exact
    ///   number text that is not a number.
    mutating func writeDocument(_ value: Value) throws(FormatError) {
        if let (tag, container) = Self.blockContainer(value) {
            if let tag {
                output.append(contentsOf: "--- ".utf8)
                output.append(contentsOf: ScalarText.tagText(tag).utf8)
                output.append(UInt8(ascii: "\n"))
            }
            try push(container, indent: 0, continuesLine: false)
            try drain()
        } else {
            try appendInline(value, inFlow: false)
            output.append(UInt8(ascii: "\n"))
        }
    }

    /// A non-empty array or object, possibly under one tag, that is written in block style.
    private static func blockContainer(_ value: Value) -> (tag: String?, container: Value)? {
        switch value {
        case .array(let elements) where !elements.isEmpty: return (nil, value)
        case .object(let object) where !object.isEmpty: return (nil, value)
        case .tagged(let tag, let inner):
            guard let (innerTag, container) = blockContainer(inner), innerTag == nil else { return nil }
            return (tag, container)
        default: return nil
        }
    }

    private mutating func push(_ container: Value, indent: Int, continuesLine: Bool) throws(FormatError) {
        switch container {
        case .array(let elements):
            stack.append(Frame(elements: elements, isMapping: false, indent: indent, continuesLine: continuesLine))
        case .object(let object):
            // Built once: a deferred object builds a member on every subscript.
            let members = object.members
            try checkUniqueKeys(members)
            stack.append(Frame(members: members, isMapping: true, indent: indent, continuesLine: continuesLine))
        default:
            break
        }
    }

    /// YAML mapping keys are unique; an object that repeats a key (JSON allows it) has no YAML form.
    private func checkUniqueKeys(_ members: [Value.Object.Member]) throws(FormatError) {
        var repeated: String?
        if members.count <= 16 {
            outer: for i in members.indices.dropFirst() {
                for j in 0..<i where members[j].key == members[i].key {
                    repeated = members[i].key
                    break outer
                }
            }
        } else {
            var seen = Set<String>(minimumCapacity: members.count)
            repeated = members.first { !seen.insert($0.key).inserted }?.key
        }
        if let repeated {
            throw FormatError(.unsupportedValue, format: format,
                              "the key '\(repeated.prefix(60))' appears twice; YAML mapping keys are unique")
        }
    }

    private mutating func writeIndent(_ count: Int) {
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }

    private mutating func drain() throws(FormatError) {
        while let top = stack.indices.last {
            // The fields are read one by one: copying the frame would retain both of its arrays.
            let index = stack[top].index, indent = stack[top].indent
            guard index < stack[top].count else {
                stack.removeLast()
                continue
            }
            stack[top].index += 1
            if !(stack[top].continuesLine && index == 0) { writeIndent(indent) }
            if stack[top].isMapping {
                let member = stack[top].members[index]
                // The limit applies to the key as written (quotes and escapes included), so the
                // key is written first and turned explicit afterwards in the rare long case.
                let keyStart = output.count
                ScalarText.appendString(member.key, inFlow: false, to: &output)
                if output.count - keyStart > Self.maxImplicitKeyBytes {
                    output.insert(contentsOf: "? ".utf8, at: keyStart)
                    output.append(UInt8(ascii: "\n"))
                    writeIndent(indent)
                }
                output.append(UInt8(ascii: ":"))
                if let (tag, container) = Self.blockContainer(member.value) {
                    if let tag {
                        output.append(UInt8(ascii: " "))
                        output.append(contentsOf: ScalarText.tagText(tag).utf8)
                    }
                    output.append(UInt8(ascii: "\n"))
                    try push(container, indent: indent + 2, continuesLine: false)
                } else {
                    output.append(UInt8(ascii: " "))
                    try appendInline(member.value, inFlow: false)
                    output.append(UInt8(ascii: "\n"))
                }
            } else {
                output.append(contentsOf: "- ".utf8)
                let element = stack[top].elements[index]
                if let (tag, container) = Self.blockContainer(element) {
                    if let tag {
                        output.append(contentsOf: ScalarText.tagText(tag).utf8)
                        output.append(UInt8(ascii: "\n"))
                        try push(container, indent: indent + 2, continuesLine: false)
                    } else {
                        try push(container, indent: indent + 2, continuesLine: true)
                    }
                } else {
                    try appendInline(element, inFlow: false)
                    output.append(UInt8(ascii: "\n"))
                }
            }
        }
    }

    /// Appends a scalar, an empty container, or (in flow context) any value on one line.
    mutating func appendInline(_ value: Value, inFlow: Bool) throws(FormatError) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let bool): output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .integer(let integer): output.append(contentsOf: String(integer).utf8)
        case .float(let double): output.append(contentsOf: ScalarText.floatText(double).utf8)
        case .number(let text):
            guard ScalarText.isNumberText(text) else {
                throw FormatError(.unsupportedValue, format: format, "'\(text.prefix(40))' is not number text")
            }
            output.append(contentsOf: text.utf8)
        case .string(let string): ScalarText.appendString(string, inFlow: inFlow, to: &output)
        case .bytes(let bytes):
            output.append(contentsOf: "!!binary ".utf8)
            Base64Text.encode(bytes, into: &output)
        case .date(let date):
            guard let text = Timestamp.format(date) else {
                throw FormatError(
                    .unsupportedValue, format: format,
                    "the date \(date.timeIntervalSince1970) seconds from 1970 is outside the years a YAML timestamp "
                        + "holds (0000–9999)"
                )
            }
            output.append(contentsOf: "!!timestamp ".utf8)
            output.append(contentsOf: text.utf8)
        case .array(let elements):
            if elements.isEmpty {
                output.append(contentsOf: "[]".utf8)
            } else {
                try appendFlow(value)
            }
        case .object(let object):
            if object.isEmpty {
                output.append(contentsOf: "{}".utf8)
            } else {
                try appendFlow(value)
            }
        case .tagged(let tag, let inner):
            if case .tagged = inner {
                throw FormatError(
                    .unsupportedValue, format: format, "a YAML node has one tag; \(tag) wraps another tagged value")
            }
            if case .bytes = inner {
                throw FormatError(
                    .unsupportedValue, format: format, "a YAML node has one tag; \(tag) wraps bytes (!!binary)")
            }
            if case .date = inner {
                throw FormatError(
                    .unsupportedValue, format: format, "a YAML node has one tag; \(tag) wraps a date (!!timestamp)")
            }
            output.append(contentsOf: ScalarText.tagText(tag).utf8)
            output.append(UInt8(ascii: " "))
            try appendInline(inner, inFlow: inFlow)
        }
    }

    /// Appends any value in flow style (`[a, {k: v}]`), iteratively.
    mutating func appendFlow(_ value: Value) throws(FormatError) {
        enum Item {
            case value(Value)
            case key(String)
            case text(StaticString)
        }
        var work: [Item] = [.value(value)]
        while let item = work.popLast() {
            switch item {
            case .text(let text):
                output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            case .key(let key):
                ScalarText.appendString(key, inFlow: true, to: &output)
                output.append(contentsOf: ": ".utf8)
            case .value(let value):
                switch value {
                case .array(let elements) where !elements.isEmpty:
                    output.append(UInt8(ascii: "["))
                    work.append(.text("]"))
                    for (offset, element) in elements.enumerated().reversed() {
                        work.append(.value(element))
                        if offset > 0 { work.append(.text(", ")) }
                    }
                case .object(let object) where !object.isEmpty:
                    let members = object.members
                    try checkUniqueKeys(members)
                    output.append(UInt8(ascii: "{"))
                    work.append(.text("}"))
                    for (offset, member) in members.enumerated().reversed() {
                        work.append(.value(member.value))
                        work.append(.key(member.key))
                        if offset > 0 { work.append(.text(", ")) }
                    }
                case .tagged(let tag, let inner) where Self.blockContainer(inner) != nil:
                    output.append(contentsOf: ScalarText.tagText(tag).utf8)
                    output.append(UInt8(ascii: " "))
                    work.append(.value(inner))
                default:
                    try appendInline(value, inFlow: true)
                }
            }
        }
    }
}
