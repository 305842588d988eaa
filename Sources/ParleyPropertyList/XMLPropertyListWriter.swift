import FoundationEssentials
import Parley

/// Writes XML property lists (Apple's DOCTYPE, tab indentation), without recursion.
enum XMLPropertyListWriter {
    static let format = "plist"

    static func write(_ value: Value) throws(FormatError) -> [UInt8] {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
        enum Step { case value(Value, depth: Int), key(String, depth: Int), close(String, depth: Int) }
        var steps: [Step] = [.value(value, depth: 0)]
        func indent(_ depth: Int) -> String { String(repeating: "\t", count: depth) }
        while let step = steps.popLast() {
            switch step {
            case .key(let key, let depth):
                out += "\(indent(depth))<key>\(try escaped(key))</key>\n"
            case .close(let name, let depth):
                out += "\(indent(depth))</\(name)>\n"
            case .value(let value, let depth):
                guard depth < 512 else {
                    throw FormatError(.unsupportedValue, format: format, "nesting deeper than 512 levels")
                }
                let pad = indent(depth)
                switch value {
                case .array(let elements):
                    if elements.isEmpty { out += "\(pad)<array/>\n"; continue }
                    out += "\(pad)<array>\n"
                    steps.append(.close("array", depth: depth))
                    for element in elements.reversed() { steps.append(.value(element, depth: depth + 1)) }
                case .object(let object):
                    if object.isEmpty { out += "\(pad)<dict/>\n"; continue }
                    out += "\(pad)<dict>\n"
                    steps.append(.close("dict", depth: depth))
                    for member in object.members.reversed() {
                        steps.append(.value(member.value, depth: depth + 1))
                        steps.append(.key(member.key, depth: depth + 1))
                    }
                case .tagged("uid", let inner):
                    guard let id = inner.integerValue else {
                        throw FormatError(.unsupportedValue, format: format, "a UID must be an integer")
                    }
                    out += "\(pad)<dict>\n\(pad)\t<key>CF$UID</key>\n\(pad)\t<integer>\(id)</integer>\n\(pad)</dict>\n"
                default:
                    out += pad + (try scalar(value)) + "\n"
                }
            }
        }
        out += "</plist>\n"
        return Array(out.utf8)
    }

    static func scalar(_ value: Value) throws(FormatError) -> String {
        switch value {
        case .bool(let b): return b ? "<true/>" : "<false/>"
        case .integer(let i): return "<integer>\(i)</integer>"
        case .number(let text):
            if UInt64(text) != nil || Int64(text) != nil { return "<integer>\(text)</integer>" }
            guard let d = Double(text), d.isFinite else {
                throw FormatError(.unsupportedValue, format: format, "number \(text) has no property-list form")
            }
            return "<real>\(d)</real>"
        case .float(let d):
            if d.isNaN { return "<real>nan</real>" }
            if d.isInfinite { return d < 0 ? "<real>-inf</real>" : "<real>+inf</real>" }
            return "<real>\(d)</real>"
        case .string(let s): return "<string>\(try escaped(s))</string>"
        case .date(let date):
            // Property-list dates are whole seconds in XML; binary keeps fractions.
            guard let text = ISO8601Text.string(from: date) else {
                throw FormatError(.unsupportedValue, format: format,
                                  ISO8601Text.noTimestampMessage(for: date) + " (the binary form can hold it)")
            }
            return "<date>\(text)</date>"
        case .bytes(let bytes): return "<data>\(Base64Text.string(from: bytes))</data>"
        case .null: throw FormatError(.unsupportedValue, format: format, "property lists have no null")
        default: throw FormatError(.unsupportedValue, format: format, "cannot write a \(value.kindName)")
        }
    }

    /// `text` escaped for XML character data.
    ///
    /// - Throws: ``FormatError/Code/unsupportedValue`` for a character XML 1.0 cannot carry (a C0
    ///   control other than TAB, LF and CR; U+FFFE; U+FFFF): the binary form can hold it.
    static func escaped(_ text: String) throws(FormatError) -> String {
        try XMLEscaping.escaped(text, for: .text, format: format)
    }
}
