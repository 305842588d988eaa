import FoundationEssentials
import Parley

/// What a tagged item decodes to: the tags the value tree has a case for become that case, the
/// self-describe tag disappears, and every other tag is kept as `Value.tagged("cbor.tag.N", …)`.
enum CBORTags {
    static let dateTimeText: UInt64 = 0
    static let epochDateTime: UInt64 = 1
    static let positiveBignum: UInt64 = 2
    static let negativeBignum: UInt64 = 3
    static let decimalFraction: UInt64 = 4
    static let selfDescribe: UInt64 = 55799

    /// The value of tag `number` around `content`, or a malformed error when the content is not
    /// what the tag requires.
    static func apply(_ number: UInt64, to content: Value, at position: Int,
                      options: CBORFormat.Options) throws(FormatError) -> Value {
        switch number {
        case dateTimeText:
            guard case .string(let text) = content, let date = ISO8601Text.date(from: text) else {
                throw malformed("tag 0 needs RFC 3339 date-time text", at: position)
            }
            return .date(date)
        case epochDateTime:
            switch content {
            case .integer(let seconds): return .date(Date(timeIntervalSince1970: Double(seconds)))
            case .float(let seconds) where seconds.isFinite: return .date(Date(timeIntervalSince1970: seconds))
            default:
                throw malformed("tag 1 needs a number of seconds that fits 64 bits or a finite float", at: position)
            }
        case positiveBignum, negativeBignum:
            guard case .bytes(let magnitude) = content else {
                throw malformed("tag \(number) needs a byte string", at: position)
            }
            let significant = magnitude.drop { $0 == 0 }
            guard significant.count <= options.maxBignumBytes else {
                throw FormatError.limitExceeded(format: CBORFormat.formatName, limit: "maxBignumBytes",
                                                maximum: options.maxBignumBytes, actual: significant.count,
                                                location: .init(byteOffset: position))
            }
            return bignum(BigMagnitude(bigEndian: significant), isNegative: number == negativeBignum)
        case decimalFraction:
            guard case .array(let parts) = content, parts.count == 2, case .integer(let exponent) = parts[0],
                  let mantissa = integerText(parts[1]) else {
                throw malformed("tag 4 needs [exponent, mantissa]: two integers", at: position)
            }
            // Far beyond any float, and beyond what the writer can renormalise without overflow.
            guard exponent.magnitude < 1 << 62 else {
                throw malformed("tag 4's exponent \(exponent) is beyond ±2^62", at: position)
            }
            return .number(exponent == 0 ? mantissa : "\(mantissa)e\(exponent)")
        case selfDescribe:
            return content
        default:
            return .tagged(CBORFormat.tag(number), content)
        }
    }

    /// A bignum's value: `.integer` when it fits 64 signed bits, else its exact decimal text.
    /// Tag 3 stands for −1 − n.
    static func bignum(_ magnitude: BigMagnitude, isNegative: Bool) -> Value {
        var magnitude = magnitude
        if isNegative { magnitude.increment() }
        if let small = magnitude.uint64 {
            if !isNegative, small <= UInt64(Int64.max) { return .integer(Int64(small)) }
            if isNegative, small <= UInt64(Int64.max) + 1 { return .integer(Int64(bitPattern: 0 &- small)) }
        }
        return .number((isNegative ? "-" : "") + magnitude.decimalText)
    }

    /// The decimal text of an integer value (a bignum's `.number` included).
    private static func integerText(_ value: Value) -> String? {
        switch value {
        case .integer(let i): return String(i)
        case .number(let text) where !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }): return text
        default: return nil
        }
    }

    private static func malformed(_ message: String, at position: Int) -> FormatError {
        FormatError(.malformed, format: CBORFormat.formatName, message, location: .init(byteOffset: position))
    }
}
