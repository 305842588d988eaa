import FoundationEssentials
import Parley

/// The JSON type of an instance, as JSON Schema sees it: tags are unwrapped, dates and bytes are
/// strings (the RFC 3339 and base64 text every format writes them as).
enum InstanceKind: UInt8, Sendable {
    case null, boolean, integer, number, string, array, object

    /// The kind of `value`; `integer` for any number without a fractional part (`1.0` too).
    init(_ value: Value) {
        switch value {
        case .null: self = .null
        case .bool: self = .boolean
        case .integer: self = .integer
        case .float(let d): self = d.isFinite && d == d.rounded() ? .integer : .number
        case .number(let text): self = ExactNumber(text: text)?.isInteger == true ? .integer : .number
        case .string, .date, .bytes: self = .string
        case .array: self = .array
        case .object: self = .object
        case .tagged(_, let inner): self.init(inner)
        }
    }
}

extension Value {
    /// The value with tags removed and dates and bytes as the strings JSON carries them as.
    var schemaView: Value {
        switch self {
        case .tagged(_, let inner): return inner.schemaView
        case .date(let date): return .string(Self.rfc3339(date))
        case .bytes(let bytes): return .string(Base64.encode(bytes))
        default: return self
        }
    }

    /// The string content of a string-kind instance (dates and bytes as text).
    var schemaString: String? {
        switch self {
        case .string(let s): return s
        case .date, .bytes, .tagged: if case .string(let s) = schemaView { return s } else { return nil }
        default: return nil
        }
    }

    /// An RFC 3339 UTC timestamp with milliseconds when present.
    static func rfc3339(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let millis = Int(((seconds - whole) * 1000).rounded())
        let days = Int(whole / 86_400) - (whole < 0 && whole.truncatingRemainder(dividingBy: 86_400) != 0 ? 1 : 0)
        let secondOfDay = Int(whole) - days * 86_400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
        text += "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if millis > 0 { text += "." + pad(millis, 3) }
        return text + "Z"
    }
}

/// Standard base64 (RFC 4648 §4) for byte instances.
enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The base64 text of `bytes`, padded.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i]
            let b1 = i + 1 < bytes.count ? bytes[i + 1] : 0
            let b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 3) << 4 | b1 >> 4)])
            out.append(i + 1 < bytes.count ? alphabet[Int((b1 & 15) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[Int(b2 & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `text` is padded standard base64.
    static func isValid(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count % 4 == 0 else { return false }
        for (i, c) in utf8.enumerated() {
            if c == UInt8(ascii: "=") {
                guard i >= utf8.count - 2, utf8[i...].allSatisfy({ $0 == UInt8(ascii: "=") }) else { return false }
            } else if !alphabet.contains(c) {
                return false
            }
        }
        return true
    }
}
