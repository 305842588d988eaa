import FoundationEssentials
import Parley

/// Writes XML property lists (Apple's DOCTYPE, tab indentation), without recursion.
enum XMLPropertyListWriter {
    static let format = "plist"

    static let prologue = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    static func write(_ value: Value) throws(FormatError) -> [UInt8] {
        var out = Array(prologue.utf8)
        enum Step { case value(Value, depth: Int), key(String, depth: Int), close(StaticString, depth: Int) }
        var steps: [Step] = [.value(value, depth: 0)]
        while let step = steps.popLast() {
            switch step {
            case .key(let key, let depth):
                indent(depth, &out)
                out.append("<key>")
                try escape(key, &out)
                out.append("</key>\n")
            case .close(let name, let depth):
                indent(depth, &out)
                out.append("</")
                out.append(name)
                out.append(">\n")
            case .value(let value, let depth):
                guard depth < 512 else {
                    throw FormatError(.unsupportedValue, format: format, "nesting deeper than 512 levels")
                }
                indent(depth, &out)
                switch value {
                case .array(let elements):
                    if elements.isEmpty { out.append("<array/>\n"); continue }
                    out.append("<array>\n")
                    steps.append(.close("array", depth: depth))
                    for element in elements.reversed() { steps.append(.value(element, depth: depth + 1)) }
                case .object(let object):
                    if object.isEmpty { out.append("<dict/>\n"); continue }
                    out.append("<dict>\n")
                    steps.append(.close("dict", depth: depth))
                    for member in object.members.reversed() {
                        steps.append(.value(member.value, depth: depth + 1))
                        steps.append(.key(member.key, depth: depth + 1))
                    }
                case .tagged("uid", let inner):
                    guard let id = inner.integerValue else {
                        throw FormatError(.unsupportedValue, format: format, "a UID must be an integer")
                    }
                    out.append("<dict>\n")
                    indent(depth + 1, &out)
                    out.append("<key>CF$UID</key>\n")
                    indent(depth + 1, &out)
                    out.append("<integer>")
                    out.append(contentsOf: String(id).utf8)
                    out.append("</integer>\n")
                    indent(depth, &out)
                    out.append("</dict>\n")
                default:
                    try scalar(value, &out)
                    out.append(UInt8(ascii: "\n"))
                }
            }
        }
        out.append("</plist>\n")
        return out
    }

    static func indent(_ depth: Int, _ out: inout [UInt8]) {
        for _ in 0..<depth { out.append(UInt8(ascii: "\t")) }
    }

    /// Appends the element for a scalar `value`.
    static func scalar(_ value: Value, _ out: inout [UInt8]) throws(FormatError) {
        switch value {
        case .bool(let b): out.append(b ? "<true/>" : "<false/>")
        case .integer(let i): element("integer", String(i), &out)
        case .number(let text):
            if UInt64(text) != nil || Int64(text) != nil { return element("integer", text, &out) }
            guard let d = Double(text), d.isFinite else {
                throw FormatError(.unsupportedValue, format: format, "number \(text) has no property-list form")
            }
            element("real", d.description, &out)
        case .float(let d):
            if d.isNaN { return element("real", "nan", &out) }
            if d.isInfinite { return element("real", d < 0 ? "-inf" : "+inf", &out) }
            element("real", d.description, &out)
        case .string(let s):
            out.append("<string>")
            try escape(s, &out)
            out.append("</string>")
        case .date(let date):
            // Property-list dates are whole seconds in XML; binary keeps fractions.
            guard let text = ISO8601Text.string(from: date) else {
                throw FormatError(.unsupportedValue, format: format,
                                  ISO8601Text.noTimestampMessage(for: date) + " (the binary form can hold it)")
            }
            element("date", text, &out)
        case .bytes(let bytes): element("data", Base64Text.string(from: bytes), &out)
        case .null: throw FormatError(.unsupportedValue, format: format, "property lists have no null")
        default: throw FormatError(.unsupportedValue, format: format, "cannot write a \(value.kindName)")
        }
    }

    /// Appends `<name>text</name>` for text that needs no escaping.
    static func element(_ name: StaticString, _ text: String, _ out: inout [UInt8]) {
        out.append("<")
        out.append(name)
        out.append(">")
        out.append(contentsOf: text.utf8)
        out.append("</")
        out.append(name)
        out.append(">")
    }

    /// Appends `text` escaped for XML character data.
    ///
    /// - Throws: ``FormatError/Code/unsupportedValue`` for a character XML 1.0 cannot carry (a C0
    ///   control other than TAB, LF and CR; U+FFFE; U+FFFF): the binary form can hold it.
    static func escape(_ text: String, _ out: inout [UInt8]) throws(FormatError) {
        try XMLEscaping.append(text, for: .text, to: &out, format: format)
    }
}
