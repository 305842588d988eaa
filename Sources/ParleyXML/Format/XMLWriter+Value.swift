import FoundationEssentials
import Parley

extension XMLWriter {
    /// The deepest value nesting the encoder writes; deeper values throw `.unsupportedValue`.
    static let maxEncodingDepth = 1_000

    /// Appends `value` as the document element, following the documented mapping: an object
    /// with one member whose key is a valid name becomes that element, anything else is
    /// wrapped in `<root>`.
    mutating func document(_ value: Value) throws(FormatError) {
        if case .object(let object) = value, object.count == 1, XMLWriter.isValidName(object[0].key) {
            try element(named: object[0].key, value: object[0].value, depth: 0)
        } else {
            try element(named: "root", value: value, depth: 0)
        }
    }

    private mutating func element(named name: String, value: Value, depth: Int) throws(FormatError) {
        guard depth < XMLWriter.maxEncodingDepth else {
            throw FormatError(
                .unsupportedValue, format: "xml", "value nested deeper than \(XMLWriter.maxEncodingDepth)")
        }
        guard XMLWriter.isValidName(name) else {
            throw FormatError(.unsupportedValue, format: "xml", "key \"\(name)\" is not a valid XML element name")
        }
        raw("<" + name)
        switch value {
        case .object(let object):
            var text: String?
            var children: [Value.Object.Member] = []
            for member in object.members {
                if member.key == "#text" {
                    text = try XMLWriter.scalarText(member.value, key: member.key)
                } else if member.key.hasPrefix("@") {
                    let attribute = String(member.key.dropFirst())
                    guard XMLWriter.isValidName(attribute) else {
                        throw FormatError(
                            .unsupportedValue, format: "xml", "key \"\(member.key)\" is not a valid attribute name")
                    }
                    raw(" " + attribute + "=\"")
                    try attributeValue(XMLWriter.scalarText(member.value, key: member.key))
                    raw("\"")
                } else {
                    children.append(member)
                }
            }
            if children.isEmpty && (text ?? "").isEmpty {
                raw("/>")
                return
            }
            raw(">")
            for child in children {
                if case .array(let elements) = child.value {
                    for element in elements { try self.element(named: child.key, value: element, depth: depth + 1) }
                } else {
                    try element(named: child.key, value: child.value, depth: depth + 1)
                }
            }
            if let text { try self.text(text) }
        case .array(let elements):
            if elements.isEmpty {
                raw("/>")
                return
            }
            raw(">")
            for element in elements { try self.element(named: "item", value: element, depth: depth + 1) }
        case .tagged(_, let inner):
            // The tag has no XML form: write the inner value under the same name.
            bytes.removeLast(name.utf8.count + 1)
            try element(named: name, value: inner, depth: depth + 1)
            return
        default:
            let text = try XMLWriter.scalarText(value, key: name)
            if text.isEmpty {
                raw("/>")
                return
            }
            raw(">")
            try self.text(text)
        }
        raw("</" + name + ">")
    }

    /// The text of a scalar value: strings as they are, numbers in their shortest form,
    /// `true`/`false`, dates in ISO 8601 (UTC, milliseconds when the date has a fraction of a
    /// second), bytes in Base64, `null` as empty text.
    static func scalarText(_ value: Value, key: String) throws(FormatError) -> String {
        switch value {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .float(let d): return d.description
        case .number(let text): return text
        case .string(let s): return s
        case .bytes(let b): return Base64Text.string(from: b)
        case .date(let d):
            guard let text = ISO8601Text.string(from: d) else {
                throw FormatError(.unsupportedValue, format: "xml", ISO8601Text.noTimestampMessage(for: d))
            }
            return text
        case .tagged(_, let inner): return try scalarText(inner, key: key)
        case .array, .object:
            throw FormatError(.unsupportedValue, format: "xml", "\(key) must hold a scalar, not \(value.kindName)")
        }
    }
}
