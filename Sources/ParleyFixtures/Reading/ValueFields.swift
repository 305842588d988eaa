import FoundationEssentials
import Parley

/// Lookups over the value tree a JSON or YAML recording decodes to, lenient in the ways real
/// recordings need (a number where a string is expected, one string where a list is).
extension Value {
    /// The value as text: strings as they are, numbers and booleans as written.
    var text: String? {
        switch self {
        case .string(let s): s
        case .integer(let i): String(i)
        case .number(let n): n
        case .float(let d): String(d)
        case .bool(let b): b ? "true" : "false"
        case .bytes(let b): String(decoding: b, as: UTF8.self)
        case .tagged(_, let inner): inner.text
        default: nil
        }
    }

    /// The value as an integer, also from text such as `"200"`.
    var integer: Int? {
        switch self {
        case .integer(let i): return Int(exactly: i)
        case .number(let n), .string(let n): return Int(n.trimmingSpacesAndTabs())
        case .float(let d): return Int(exactly: d)
        default: return nil
        }
    }

    /// Header fields from either shape recordings use: a list of `{name, value}` objects (HAR)
    /// or a map from name to a value or a list of values (cassettes).
    var recordedFields: RecordedFields {
        var fields = RecordedFields()
        switch self {
        case .array(let entries):
            for entry in entries {
                guard let name = entry["name"]?.text else { continue }
                fields.append(name: name, value: entry["value"]?.text ?? "")
            }
        case .object(let object):
            for member in object {
                switch member.value {
                case .array(let values):
                    for value in values { fields.append(name: member.key, value: value.text ?? "") }
                case .null:
                    continue
                default:
                    fields.append(name: member.key, value: member.value.text ?? "")
                }
            }
        default:
            break
        }
        return fields
    }
}

/// Base64 as recordings write it: padded, possibly broken into lines.
enum LenientBase64 {
    static func decode(_ text: String) -> [UInt8]? {
        Data(base64Encoded: text, options: .ignoreUnknownCharacters).map { [UInt8]($0) }
    }
}
