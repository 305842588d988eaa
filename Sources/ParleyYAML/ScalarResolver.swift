import Parley

/// Resolves scalars: plain ones with the YAML 1.2 core schema, tagged ones with the tags
/// Parley constructs. Works on the scalar's UTF-8 bytes; builds a `String` only for strings.
enum ScalarResolver {
    static let yamlTagPrefix = "tag:yaml.org,2002:"

    /// The tags Parley constructs (everything else is kept as `.tagged` or rejected).
    static let knownTags: Set<String> = Set(["str", "int", "float", "bool", "null", "binary", "timestamp",
                                             "map", "seq", "merge"].map { yamlTagPrefix + $0 })

    static func isKnownTag(_ tag: String) -> Bool {
        tag == "!" || knownTags.contains(tag)
    }

    // MARK: Plain scalars (core schema)

    /// Resolves an untagged plain scalar: null, Boolean, integer, float or string.
    static func resolvePlain(_ bytes: UnsafeBufferPointer<UInt8>, timestamps: Bool) -> Value {
        resolvedNonString(bytes, timestamps: timestamps) ?? .string(String(utf8: bytes))
    }

    /// What a plain scalar resolves to when that is not a string (null, a boolean, a number or a
    /// timestamp), or `nil` for a string.
    private static func resolvedNonString(_ bytes: UnsafeBufferPointer<UInt8>, timestamps: Bool) -> Value? {
        guard let first = bytes.first else { return .null }
        switch first {
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"):
            if isNull(bytes) { return .null }
        case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
            if let bool = bool(bytes) { return .bool(bool) }
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            if let number = number(bytes) { return number }
            if timestamps, let date = Timestamp.parse(bytes) { return .date(date) }
        default:
            break
        }
        return nil
    }

    static func isNull(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch bytes.count {
        case 0: return true
        case 1: return bytes[0] == UInt8(ascii: "~")
        case 4: return bytes.equals("null") || bytes.equals("Null") || bytes.equals("NULL")
        default: return false
        }
    }

    static func bool(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        switch bytes.count {
        case 4: return bytes.equals("true") || bytes.equals("True") || bytes.equals("TRUE") ? true : nil
        case 5: return bytes.equals("false") || bytes.equals("False") || bytes.equals("FALSE") ? false : nil
        default: return nil
        }
    }

    /// A core-schema integer or float, or `nil` when the text is neither.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        if let integer = integer(bytes) { return integer }
        return float(bytes)
    }

    /// `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        let count = bytes.count
        if count > 2, bytes[0] == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: "o") || bytes[1] == UInt8(ascii: "x") {
            return radixInteger(
                UnsafeBufferPointer(rebasing: bytes[2...]), radix: bytes[1] == UInt8(ascii: "o") ? 8 : 16)
        }
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        guard index < count else { return nil }
        var magnitude: UInt64 = 0
        var overflow = false
        if count - index <= 19 {
            // 19 digits are below 2^64: no step can overflow.
            for i in index..<count {
                let digit = bytes[i] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                magnitude = magnitude &* 10 &+ UInt64(digit)
            }
        } else {
            for i in index..<count {
                let digit = bytes[i] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                if !overflow {
                    let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (plus, o2) = times.addingReportingOverflow(UInt64(digit))
                    if o1 || o2 { overflow = true } else { magnitude = plus }
                }
            }
        }
        if !overflow {
            if negative {
                if magnitude == 0 { return .number("-0") }
                if magnitude <= UInt64(Int64.max) + 1 { return .integer(Int64(truncatingIfNeeded: 0 &- magnitude)) }
            } else if magnitude <= UInt64(Int64.max) {
                return .integer(Int64(magnitude))
            }
        }
        let digits = withoutLeadingZeros(UnsafeBufferPointer(rebasing: bytes[index...]))
        return .number((negative ? "-" : "") + String(decoding: digits, as: UTF8.self))
    }

    /// `digits` without its leading zeros, keeping one digit (`"000"` gives `"0"`, `""` stays empty).
    static func withoutLeadingZeros(_ digits: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        while start + 1 < digits.count && digits[start] == UInt8(ascii: "0") { start += 1 }
        return UnsafeBufferPointer(rebasing: digits[start...])
    }

    /// The most significant digits (leading zeros aside) a `0x` or `0o` integer may have: 512,
    /// 2,048 bits in hexadecimal. Converting such a literal to decimal text takes time that grows
    /// with the square of its length, so longer ones are refused rather than converted.
    static let maxRadixDigits = 512

    /// The number of significant digits of a `0x`/`0o` literal (`bytes` is the whole scalar)
    /// when it has more than ``maxRadixDigits``; `nil` for anything else.
    static func oversizedRadixDigitCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count > 2 + maxRadixDigits, bytes[0] == UInt8(ascii: "0"),
              bytes[1] == UInt8(ascii: "o") || bytes[1] == UInt8(ascii: "x") else { return nil }
        let count = withoutLeadingZeros(UnsafeBufferPointer(rebasing: bytes[2...])).count
        return count > maxRadixDigits ? count : nil
    }

    private static func radixInteger(_ digits: UnsafeBufferPointer<UInt8>, radix: UInt8) -> Value? {
        var magnitude: UInt64 = 0
        var overflow = false
        var values: [UInt8] = []
        for byte in digits {
            guard let value = ByteClass.hexDigitValue(byte), value < radix else { return nil }
            if value == 0 && values.isEmpty { continue }  // a leading zero
            values.append(value)
            if !overflow {
                let (times, o1) = magnitude.multipliedReportingOverflow(by: UInt64(radix))
                let (plus, o2) = times.addingReportingOverflow(UInt64(value))
                if o1 || o2 { overflow = true } else { magnitude = plus }
            }
        }
        if !overflow && magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
        if !overflow { return .number(String(magnitude)) }
        guard values.count <= maxRadixDigits else { return nil }
        return .number(decimalText(digits: values, radix: radix))
    }

    /// The decimal text of a big number given as digits in `radix` (8 or 16), most significant
    /// first. Schoolbook conversion into base-10⁹ limbs, several input digits (27 or 28 bits) per
    /// step: quadratic in the literal's length, which ``maxRadixDigits`` bounds.
    private static func decimalText(digits: [UInt8], radix: UInt8) -> String {
        let limbBase: UInt64 = 1_000_000_000
        let digitsPerStep = radix == 16 ? 7 : 9  // 16^7 = 2^28, 8^9 = 2^27: limb × step < 2^58
        var limbs: [UInt32] = [0]  // least significant first
        var index = 0
        // The first step takes the digits left over after whole steps, so the rest are whole.
        var stepLength = digits.count % digitsPerStep
        if stepLength == 0 { stepLength = digitsPerStep }
        while index < digits.count {
            var multiplier: UInt64 = 1
            var addend: UInt64 = 0
            for digit in digits[index..<index + stepLength] {
                multiplier *= UInt64(radix)
                addend = addend * UInt64(radix) + UInt64(digit)
            }
            index += stepLength
            stepLength = digitsPerStep
            var carry = addend
            for i in limbs.indices {
                let value = UInt64(limbs[i]) * multiplier + carry
                limbs[i] = UInt32(value % limbBase)
                carry = value / limbBase
            }
            while carry > 0 {
                limbs.append(UInt32(carry % limbBase))
                carry /= limbBase
            }
        }
        while limbs.count > 1 && limbs.last == 0 { limbs.removeLast() }
        var text = String(limbs[limbs.count - 1])
        for limb in limbs.dropLast().reversed() {
            let part = String(limb)
            text += String(repeating: "0", count: 9 - part.utf8.count) + part
        }
        return text
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `[-+]?\.(inf|Inf|INF)`, `\.(nan|NaN|NAN)`.
    static func float(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        let count = bytes.count
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        let rest = UnsafeBufferPointer(rebasing: bytes[index...])
        if rest.count == 4 && rest[0] == UInt8(ascii: ".") {
            if rest.equals(".inf") || rest.equals(".Inf") || rest.equals(".INF") {
                return .float(negative ? -.infinity : .infinity)
            }
            if index == 0 && (rest.equals(".nan") || rest.equals(".NaN") || rest.equals(".NAN")) {
                return .float(.nan)
            }
        }
        // Scan the mantissa and exponent, collecting the parts of the JSON-grammar text.
        let integerStart = index
        while index < count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        let integerDigits = UnsafeBufferPointer(rebasing: bytes[integerStart..<index])
        var fractionDigits = UnsafeBufferPointer<UInt8>(rebasing: bytes[index..<index])
        var hasPoint = false
        if index < count, bytes[index] == UInt8(ascii: ".") {
            hasPoint = true
            index += 1
            let fractionStart = index
            while index < count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            fractionDigits = UnsafeBufferPointer(rebasing: bytes[fractionStart..<index])
        }
        guard !integerDigits.isEmpty || !fractionDigits.isEmpty else { return nil }
        guard integerDigits.count > 0 || hasPoint else { return nil }
        var exponent: UnsafeBufferPointer<UInt8>?
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            let exponentStart = index
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            let digitsStart = index
            while index < count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            guard index > digitsStart else { return nil }
            exponent = UnsafeBufferPointer(rebasing: bytes[exponentStart..<index])
        }
        guard index == count else { return nil }
        if let magnitude = exactDouble(integerDigits: integerDigits, fractionDigits: fractionDigits,
                                       exponent: exponent) {
            return .float(negative ? -magnitude : magnitude)
        }

        var text = negative ? "-" : ""
        text += integerDigits.isEmpty ? "0" : String(decoding: withoutLeadingZeros(integerDigits), as: UTF8.self)
        if hasPoint { text += "." + (fractionDigits.isEmpty ? "0" : String(decoding: fractionDigits, as: UTF8.self)) }
        if let exponent { text += String(decoding: exponent, as: UTF8.self) }
        guard let double = Double(text) else { return nil }
        return representsExactly(double, text) ? .float(double) : .number(text)
    }

    /// Powers of ten a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The magnitude of a decimal with at most 15 digits (leading zeros aside) and a decimal
    /// exponent within ±22, or `nil` for any other (those go through the text). Such a number is
    /// one exact integer multiplied or divided by one exact power of ten: one correctly rounded
    /// operation (Clinger's fast path) gives the same `Double` as parsing the text, and with 15
    /// digits or fewer it represents the text exactly (``representsExactly(_:_:)``).
    ///
    /// - Parameters:
    ///   - integerDigits: The digits before the point.
    ///   - fractionDigits: The digits after it.
    ///   - exponent: `e`, an optional sign and digits, when present.
    static func exactDouble(integerDigits: UnsafeBufferPointer<UInt8>, fractionDigits: UnsafeBufferPointer<UInt8>,
                            exponent: UnsafeBufferPointer<UInt8>?) -> Double? {
        var mantissa: UInt64 = 0
        var digits = 0
        func accumulate(_ buffer: UnsafeBufferPointer<UInt8>) {
            for byte in buffer where digits > 0 || byte != UInt8(ascii: "0") {
                if digits < 16 { mantissa = mantissa * 10 + UInt64(byte &- UInt8(ascii: "0")) }
                digits += 1
            }
        }
        accumulate(integerDigits)
        accumulate(fractionDigits)
        guard digits <= 15 else { return nil }
        if mantissa == 0 { return 0 }
        var decimalExponent = -fractionDigits.count
        if let exponent {
            // `e`, then an optional sign, then at least one digit.
            var index = 1
            let isNegative = exponent[index] == UInt8(ascii: "-")
            if isNegative || exponent[index] == UInt8(ascii: "+") { index += 1 }
            guard exponent.count - index <= 4 else { return nil }
            var value = 0
            while index < exponent.count {
                value = value * 10 + Int(exponent[index] &- UInt8(ascii: "0"))
                index += 1
            }
            decimalExponent += isNegative ? -value : value
        }
        guard decimalExponent >= -22 && decimalExponent <= 22 else { return nil }
        return decimalExponent < 0 ? Double(mantissa) / exactPowersOfTen[-decimalExponent]
                                   : Double(mantissa) * exactPowersOfTen[decimalExponent]
    }

    /// Whether `double` stands for `text` without loss: finite, not an underflow, and either 15
    /// significant digits or fewer or the same digits and scale as the double's shortest form.
    static func representsExactly(_ double: Double, _ text: String) -> Bool {
        guard double.isFinite else { return false }
        let written = significantDigits(text)
        if double == 0 { return written.digits.isEmpty }
        if written.digits.count <= 15 { return true }
        let shortest = significantDigits(double.description)
        return shortest.digits == written.digits && shortest.scale == written.scale
    }

    /// The significant digits of a decimal text (no leading or trailing zeros) and the decimal
    /// exponent of the first one.
    static func significantDigits(_ text: String) -> (digits: [UInt8], scale: Int) {
        var digits: [UInt8] = []
        var pointPosition: Int?
        var exponent = 0
        var position = 0
        var leadingZeros = 0
        var utf8 = text.utf8[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                exponent = Int(String(decoding: utf8.drop { $0 == UInt8(ascii: "+") }, as: UTF8.self)) ?? 0
                break
            }
            if byte == UInt8(ascii: ".") {
                pointPosition = position
                continue
            }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { continue }
            if digits.isEmpty && byte == UInt8(ascii: "0") {
                leadingZeros += 1
            } else {
                digits.append(byte)
            }
            position += 1
        }
        let point = pointPosition ?? position
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        return (digits, point - leadingZeros + exponent)
    }

    // MARK: Tagged scalars

    /// Constructs a scalar with a tag Parley knows, or returns `nil` for an unknown tag.
    ///
    /// - Throws: ``ScalarError`` when the text does not fit its tag.
    static func resolveTagged(_ bytes: UnsafeBufferPointer<UInt8>, tag: String) throws(ScalarError) -> Value? {
        if tag == "!" { return .string(String(utf8: bytes)) }
        guard tag.hasPrefix(yamlTagPrefix) else { return nil }
        let name = tag.dropFirst(yamlTagPrefix.count)
        func invalid() -> ScalarError {
            ScalarError(message: "'\(String(decoding: bytes.prefix(40), as: UTF8.self))' is not a valid !!\(name)")
        }
        switch name {
        case "str", "merge":
            return .string(String(utf8: bytes))
        case "null":
            guard isNull(bytes) else { throw invalid() }
            return .null
        case "bool":
            guard let bool = bool(bytes) else { throw invalid() }
            return .bool(bool)
        case "int":
            guard !bytes.isEmpty, let value = integer(bytes) else { throw invalid() }
            return value
        case "float":
            guard !bytes.isEmpty, let value = number(bytes) else { throw invalid() }
            if case .integer(let integer) = value { return .float(Double(integer)) }
            if case .number(let text) = value, let double = Double(text), double.isFinite,
               !text.contains("."), !text.contains("e"), !text.contains("E") {
                return .number(text + ".0")
            }
            return value
        case "binary":
            guard let decoded = Base64Text.decode(bytes, skippingWhitespace: true) else { throw invalid() }
            return .bytes(decoded)
        case "timestamp":
            guard let date = Timestamp.parse(bytes) else { throw invalid() }
            return .date(date)
        case "map", "seq":
            throw ScalarError(message: "tag !!\(name) cannot be used on a scalar")
        default:
            return nil
        }
    }
}
