import FoundationEssentials
import Parley

/// Writes one value as a block-style YAML document, with an explicit stack (no recursion).
///
/// Mappings are `key: value` lines, sequences `- item` lines indented two spaces under their
/// key; empty containers are `[]` and `{}`; a sequence or mapping inside a sequence starts on
/// the dash's line (`- - a`, `- key: value`). Keys longer than 1,000 bytes as written (quotes
/// and escapes included) use the explicit `? key` form, since YAML caps implicit keys at 1,024
/// characters.
///
/// An object that builds its members on demand (a JSON body's) is written straight from the
/// tape of the document it was parsed into (``writeTape(_:object:indent:continuesLine:)``),
/// through the same scalar and key writers and by the same layout rules, unless
/// ``streamsDeferredObjects`` is off.
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
    /// Whether objects that build their members on demand are written from their document's
    /// tape (`false`: their members are built, as for any object).
    let streamsDeferredObjects: Bool
    /// The bytes written so far.
    let output: ByteOutput
    private var stack: [Frame] = []
    /// The start and end in ``output`` of each key written by the open tape frames, a frame's
    /// together, for the unique-key check (``writeTape(_:object:indent:continuesLine:)``). A
    /// mapping that follows its key template adds none (its keys are the template's first ones)
    /// until a key departs from it.
    var tapeKeys: [Range<Int>] = []
    /// The keys of each open tape mapping of more than 16 members, innermost last (fewer are
    /// compared one by one, as written, through ``tapeKeys``).
    var tapeKeySets: [Set<String>] = []
    /// For each depth of tape frames, the keys of the last mapping of at most 16 members closed at
    /// that depth, as start and end in ``output`` of the same text written there or earlier:
    /// distinct keys, already checked and written.
    /// The mappings of an array of records repeat one another's keys, so a key equal to the one
    /// at its place there is written as it was, without the plain-scalar test or the comparisons
    /// with its mapping's earlier keys (see ``TapeFrame/followsKeyTemplate``). Kept: a cache, which
    /// the gated JSON-to-YAML transcode shows pays (Benchmarks/Gate/kept-shortcuts.md).
    var keyTemplates: [[Range<Int>]] = []

    init(format: String, streamsDeferredObjects: Bool = true) {
        self.format = format
        self.streamsDeferredObjects = streamsDeferredObjects
        // A typical API answer's size: smaller starts grew it several times over.
        output = ByteOutput(capacity: 1_024)
    }

    /// The document written.
    var bytes: [UInt8] { output.makeArray() }

    /// Writes `value` as the whole document.
    ///
    /// - Throws: ``FormatError/Code/unsupportedValue`` for a tag on a tagged value, or exact
    ///   number text that is not a number.
    mutating func writeDocument(_ value: Value) throws(FormatError) {
        if let (tag, container) = Self.blockContainer(value) {
            if let tag {
                append("--- ")
                output.append(contentsOf: ScalarText.tagText(tag))
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
            if streamsDeferredObjects {
                // Room for a typical document's nesting and open keys at once (growing one by one
                // reallocated at each new depth and key).
                tapeKeys.reserveCapacity(32)
                keyTemplates.reserveCapacity(8)
                let written = try object.withValueTape { (tape, entry) throws(FormatError) in
                    try writeTape(tape, object: entry, indent: indent, continuesLine: continuesLine)
                }
                if written { return }
            }
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
            throw repeatedKey(repeated)
        }
    }

    func repeatedKey(_ key: String) -> FormatError {
        FormatError(.unsupportedValue, format: format,
                    "the key '\(key.prefix(60))' appears twice; YAML mapping keys are unique")
    }

    /// Writes the key of a mapping entry (`key:`), turned explicit when long (see ``drain()``).
    private mutating func writeKey(_ key: UnsafeBufferPointer<UInt8>, indent: Int) {
        // The limit applies to the key as written (quotes and escapes included), so the key is
        // written first and turned explicit afterwards in the rare long case.
        let keyStart = output.count
        ScalarText.appendString(key, inFlow: false, to: output)
        if output.count - keyStart > Self.maxImplicitKeyBytes {
            output.insert("? ", at: keyStart)
            output.append(UInt8(ascii: "\n"))
            writeIndent(indent)
        }
        output.append(UInt8(ascii: ":"))
    }

    /// Appends literal text. Always inlined, as is ``writeIndent(_:)``: a call passed a copy of
    /// the whole writer for the one reference it uses.
    @inline(__always)
    func append(_ text: StaticString) {
        output.append(text)
    }

    /// Appends `count` spaces.
    @inline(__always)
    func writeIndent(_ count: Int) {
        output.append(repeating: UInt8(ascii: " "), count: count)
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
                var member = stack[top].members[index]
                member.key.withUTF8 { writeKey($0, indent: indent) }
                try writeMemberValue(member.value, indent: indent)
            } else {
                append("- ")
                try writeElement(stack[top].elements[index], indent: indent)
            }
        }
    }

    /// Writes a mapping entry's value after its `key:`, pushing a block container.
    private mutating func writeMemberValue(_ value: Value, indent: Int) throws(FormatError) {
        if let (tag, container) = Self.blockContainer(value) {
            if let tag {
                output.append(UInt8(ascii: " "))
                output.append(contentsOf: ScalarText.tagText(tag))
            }
            output.append(UInt8(ascii: "\n"))
            try push(container, indent: indent + 2, continuesLine: false)
        } else {
            output.append(UInt8(ascii: " "))
            try appendInline(value, inFlow: false)
            output.append(UInt8(ascii: "\n"))
        }
    }

    /// Writes a sequence entry after its `- `, pushing a block container.
    private mutating func writeElement(_ element: Value, indent: Int) throws(FormatError) {
        if let (tag, container) = Self.blockContainer(element) {
            if let tag {
                output.append(contentsOf: ScalarText.tagText(tag))
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

    /// Appends a scalar, an empty container, or (in flow context) any value on one line.
    mutating func appendInline(_ value: Value, inFlow: Bool) throws(FormatError) {
        switch value {
        case .null: append("null")
        case .bool(let bool): append(bool ? "true" : "false")
        case .integer(let integer): output.append(decimal: integer)
        case .float(let double): FloatText.append(double, to: output)
        case .number(let text): try appendNumberText(text)
        case .string(let string): ScalarText.appendString(string, inFlow: inFlow, to: output)
        case .bytes(let bytes):
            append("!!binary ")
            var encoded: [UInt8] = []
            Base64Text.encode(bytes, into: &encoded)
            output.append(contentsOf: encoded)
        case .date(let date):
            guard let text = Timestamp.format(date) else {
                throw FormatError(
                    .unsupportedValue, format: format,
                    "the date \(date.timeIntervalSince1970) seconds from 1970 is outside the years a YAML timestamp "
                        + "holds (0000–9999)"
                )
            }
            append("!!timestamp ")
            output.append(contentsOf: text)
        case .array(let elements):
            if elements.isEmpty {
                append("[]")
            } else {
                try appendFlow(value)
            }
        case .object(let object):
            if object.isEmpty {
                append("{}")
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
            output.append(contentsOf: ScalarText.tagText(tag))
            output.append(UInt8(ascii: " "))
            try appendInline(inner, inFlow: inFlow)
        }
    }

    func appendNumberText(_ text: String) throws(FormatError) {
        guard ScalarText.isNumberText(text) else {
            throw FormatError(.unsupportedValue, format: format, "'\(text.prefix(40))' is not number text")
        }
        output.append(contentsOf: text)
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
                append(text)
            case .key(let key):
                ScalarText.appendString(key, inFlow: true, to: output)
                append(": ")
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
                    output.append(contentsOf: ScalarText.tagText(tag))
                    output.append(UInt8(ascii: " "))
                    work.append(.value(inner))
                default:
                    try appendInline(value, inFlow: true)
                }
            }
        }
    }
}
