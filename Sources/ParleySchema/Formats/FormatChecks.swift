import FoundationEssentials
import Parley

/// The checks behind each asserted `format` (RFC 3339 dates and times, RFC 5321 addresses,
/// RFC 1123 host names, RFC 3986/3987 references, RFC 6570 templates, RFC 6901 pointers).
enum FormatChecks {
    static func check(_ text: String, _ kind: FormatKind) -> Bool {
        switch kind {
        case .date: return DateTimeFormats.date(Array(text.utf8))
        case .time: return DateTimeFormats.time(Array(text.utf8))
        case .dateTime: return DateTimeFormats.dateTime(Array(text.utf8))
        case .duration: return DateTimeFormats.duration(Array(text.utf8))
        case .email: return email(text, international: false)
        case .idnEmail: return email(text, international: true)
        case .hostname: return hostname(text, international: false)
        case .hostnameRFC1123: return hostname(text, international: false, rfc1123Only: true)
        case .idnHostname: return hostname(text, international: true)
        case .ipv4: return ipv4(Array(text.utf8))
        case .ipv6: return ipv6(text)
        case .uri: return URIFormats.valid(text, requireScheme: true, international: false)
        case .uriReference: return URIFormats.valid(text, requireScheme: false, international: false)
        case .iri: return URIFormats.valid(text, requireScheme: true, international: true)
        case .iriReference: return URIFormats.valid(text, requireScheme: false, international: true)
        case .uriTemplate: return URIFormats.template(text)
        case .uuid: return uuid(text)
        case .jsonPointer: return JSONPointer.isValid(text)
        case .relativeJSONPointer: return relativeJSONPointer(text)
        case .regex: return (try? ECMAPattern(text, unicode: true)) != nil
        case .byte: return Base64.isValid(text)
        case .int32, .int64, .float, .double, .binary, .password: return true
        }
    }

    static func numberFits(_ number: ExactNumber, _ instance: Value, _ kind: FormatKind) -> Bool {
        switch kind {
        case .int32:
            guard number.isInteger else { return false }
            return ExactNumber.compare(number, int32Max) <= 0 && ExactNumber.compare(number, int32Min) >= 0
        case .int64:
            guard number.isInteger else { return false }
            return ExactNumber.compare(number, int64Max) <= 0 && ExactNumber.compare(number, int64Min) >= 0
        case .float:
            guard let d = instance.doubleValue else { return false }
            return d.isFinite && abs(d) <= Double(Float.greatestFiniteMagnitude)
        case .double:
            return instance.doubleValue?.isFinite ?? false
        default: return true
        }
    }

    static let int32Max = ExactNumber(text: "2147483647")!
    static let int32Min = ExactNumber(text: "-2147483648")!
    static let int64Max = ExactNumber(text: "9223372036854775807")!
    static let int64Min = ExactNumber(text: "-9223372036854775808")!

    static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    static func isAlpha(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
    }

    static func uuid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (i, c) in bytes.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard c == UInt8(ascii: "-") else { return false }
            } else if URIReference.hexValue(c) == nil {
                return false
            }
        }
        return true
    }

    /// Dotted-quad IPv4 (RFC 2673 §3.2): four decimal octets, no leading zeros.
    static func ipv4(_ bytes: [UInt8]) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(isDigit),
                !(part.count > 1 && part.first == UInt8(ascii: "0"))
            else { return false }
            let value = part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard value <= 255 else { return false }
        }
        return true
    }

    /// IPv6 text (RFC 4291 §2.2), with an optional trailing dotted quad.
    static func ipv6(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 < 0x80 }) else { return false }
        var maxGroups = 8
        if bytes.contains(UInt8(ascii: ".")) {
            guard let lastColon = bytes.lastIndex(of: UInt8(ascii: ":")), ipv4(Array(bytes[(lastColon + 1)...])) else {
                return false
            }
            bytes = Array(bytes[...lastColon])
            maxGroups = 6
            if !(bytes.count >= 2 && bytes[bytes.count - 2] == UInt8(ascii: ":")) {
                bytes.removeLast()
                if bytes.last == UInt8(ascii: ":") || bytes.isEmpty { return false }
            }
        }
        func groups(_ part: ArraySlice<UInt8>) -> Int? {
            if part.isEmpty { return 0 }
            var count = 0
            for group in part.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false) {
                guard !group.isEmpty, group.count <= 4, group.allSatisfy({ URIReference.hexValue($0) != nil }) else {
                    return nil
                }
                count += 1
            }
            return count
        }
        var compression: Int?
        for i in 0..<max(0, bytes.count - 1) where bytes[i] == UInt8(ascii: ":") && bytes[i + 1] == UInt8(ascii: ":") {
            guard compression == nil else { return false }
            compression = i
        }
        guard let compression else { return groups(bytes[...]) == maxGroups }
        guard let head = groups(bytes[..<compression]), let tail = groups(bytes[(compression + 2)...]) else {
            return false
        }
        return head + tail <= maxGroups - 1
    }

    /// A host name (RFC 1123 §2.1): labels of letters, digits and hyphens, at most 63 bytes each
    /// and 253 in all; with `international`, labels may hold other Unicode letters and marks (IDNA2008 U-labels).
    static func hostname(_ text: String, international: Bool, rfc1123Only: Bool = false) -> Bool {
        var text = text
        if international {
            // IDNA2008 treats these full stops as label separators.
            text = String(
                text.unicodeScalars.map { ["\u{3002}", "\u{FF0E}", "\u{FF61}"].contains($0) ? "." : Character($0) })
        }
        guard !text.isEmpty, text.utf8.count <= 253 || (international && !text.utf8.allSatisfy { $0 < 0x80 }) else {
            return false
        }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard !label.isEmpty, label.utf8.count <= 63 || (international && !label.utf8.allSatisfy { $0 < 0x80 }),
                label.first != "-", label.last != "-"
            else { return false }
            let scalars = Array(label.unicodeScalars)
            if !rfc1123Only, scalars.count > 3, scalars[2] == "-", scalars[3] == "-" {
                // Only `xn--` A-labels may have hyphens in the third and fourth positions, and
                // what they encode must be a valid U-label.
                guard label.lowercased().hasPrefix("xn--"), let decoded = punycodeDecoded(label.dropFirst(4)),
                    !decoded.isEmpty, decoded.allSatisfy({ $0.isASCII || idnScalarAllowed($0) }),
                    idnContextRules(decoded)
                else { return false }
                if !(decoded.count > 3 && decoded[2] == "-" && decoded[3] == "-") { continue }
                return false
            }
            for scalar in scalars {
                if scalar.isASCII {
                    let c = UInt8(scalar.value)
                    guard isAlpha(c) || isDigit(c) || c == UInt8(ascii: "-") else { return false }
                } else {
                    guard international, idnScalarAllowed(scalar) else { return false }
                }
            }
            if international, !idnContextRules(scalars) { return false }
        }
        return true
    }

    /// Whether a non-ASCII scalar may appear in an IDNA2008 label (letters, marks, digits; not
    /// the disallowed punctuation and symbols).
    static func idnScalarAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x302E, 0x302F, 0x3031...0x3035, 0x303B, 0x0640, 0x07FA: return false  // DISALLOWED in RFC 5892
        case 0x00B7, 0x0375, 0x05F3, 0x05F4, 0x30FB, 0x200C, 0x200D: return true  // CONTEXTO/CONTEXTJ, checked later
        case 0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007: return true  // PVALID exceptions in RFC 5892
        default: break
        }
        switch scalar.properties.generalCategory {
        case .lowercaseLetter, .otherLetter, .modifierLetter, .nonspacingMark, .spacingMark, .enclosingMark,
            .decimalNumber, .titlecaseLetter, .uppercaseLetter:
            return !scalar.properties.changesWhenLowercased
        default: return false
        }
    }

    /// RFC 5892 Appendix A contextual rules for the scalars that need them.
    static func idnContextRules(_ scalars: [Unicode.Scalar]) -> Bool {
        if let first = scalars.first,
            [.nonspacingMark, .spacingMark, .enclosingMark].contains(first.properties.generalCategory)
        {
            return false
        }
        var hasArabicIndic = false
        var hasExtendedArabicIndic = false
        for (i, s) in scalars.enumerated() {
            let previous = i > 0 ? scalars[i - 1] : nil
            let next = i + 1 < scalars.count ? scalars[i + 1] : nil
            switch s.value {
            case 0x00B7:  // MIDDLE DOT: between two l's
                guard previous == "l", next == "l" else { return false }
            case 0x0375:  // GREEK KERAIA: followed by Greek
                guard let next, (0x0370...0x03FF).contains(next.value) || (0x1F00...0x1FFF).contains(next.value) else {
                    return false
                }
            case 0x05F3, 0x05F4:  // HEBREW GERESH/GERSHAYIM: after Hebrew
                guard let previous, (0x0590...0x05FF).contains(previous.value) else { return false }
            case 0x30FB:  // KATAKANA MIDDLE DOT: with Hiragana, Katakana or Han in the label
                guard
                    scalars.contains(where: {
                        $0.value != 0x30FB && ((0x3040...0x30FF).contains($0.value) || $0.properties.isIdeographic)
                    })
                else { return false }
            case 0x200D, 0x200C:  // ZERO WIDTH JOINER / NON-JOINER: after a virama
                guard let previous, previous.properties.canonicalCombiningClass.rawValue == 9 else { return false }
            case 0x0660...0x0669: hasArabicIndic = true
            case 0x06F0...0x06F9: hasExtendedArabicIndic = true
            default: break
            }
        }
        return !(hasArabicIndic && hasExtendedArabicIndic)
    }

    /// The Unicode label an A-label's Punycode part (after `xn--`) encodes (RFC 3492 §6.2), or `nil`.
    static func punycodeDecoded(_ text: Substring) -> [Unicode.Scalar]? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        let basicEnd = bytes.lastIndex(of: UInt8(ascii: "-")) ?? 0
        var output: [Unicode.Scalar] = bytes[..<basicEnd].map { Unicode.Scalar($0) }
        var n = 128
        var i = 0
        var bias = 72
        var index = basicEnd > 0 ? basicEnd + 1 : 0
        while index < bytes.count {
            let oldi = i
            var w = 1
            var k = 36
            while true {
                guard index < bytes.count else { return nil }
                let c = bytes[index]
                index += 1
                let digit: Int
                if isDigit(c) {
                    digit = Int(c) - 22
                } else if isAlpha(c) {
                    digit = Int(c | 0x20) - 97
                } else {
                    return nil
                }
                i += digit * w
                guard i < 0x10FFFF * 64 else { return nil }
                let t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias
                if digit < t { break }
                w *= 36 - t
                k += 36
            }
            let count = output.count + 1
            var delta = oldi == 0 ? (i - oldi) / 700 : (i - oldi) / 2
            delta += delta / count
            var kk = 0
            while delta > 455 {
                delta /= 35
                kk += 36
            }
            bias = kk + 36 * delta / (delta + 38)
            n += i / count
            i %= count
            guard let scalar = Unicode.Scalar(n) else { return nil }
            output.insert(scalar, at: i)
            i += 1
        }
        return output
    }

    /// An e-mail address (RFC 5321 §4.1.2 mailbox): a dot-atom or quoted local part, then a host
    /// name or an address literal; `international` allows UTF-8 (RFC 6531).
    static func email(_ text: String, international: Bool) -> Bool {
        guard let at = text.lastIndex(of: "@") else { return false }
        let local = text[..<at]
        let domain = String(text[text.index(after: at)...])
        guard !local.isEmpty, !domain.isEmpty else { return false }
        if local.hasPrefix("\"") {
            guard local.count >= 2, local.hasSuffix("\"") else { return false }
            var escaped = false
            for scalar in local.unicodeScalars.dropFirst().dropLast() {
                if escaped {
                    escaped = false
                    continue
                }
                if scalar == "\\" {
                    escaped = true
                    continue
                }
                if scalar == "\"" { return false }
                if !scalar.isASCII && !international { return false }
            }
            if escaped { return false }
        } else {
            guard local.first != ".", local.last != ".", !local.contains("..") else { return false }
            let atext = "!#$%&'*+-/=?^_`{|}~."
            for scalar in local.unicodeScalars {
                if scalar.isASCII {
                    let c = UInt8(scalar.value)
                    guard isAlpha(c) || isDigit(c) || atext.unicodeScalars.contains(scalar) else { return false }
                } else if !international {
                    return false
                }
            }
        }
        if domain.hasPrefix("[") {
            guard domain.hasSuffix("]") else { return false }
            let literal = String(domain.dropFirst().dropLast())
            if literal.hasPrefix("IPv6:") { return ipv6(String(literal.dropFirst(5))) }
            return ipv4(Array(literal.utf8))
        }
        return hostname(domain, international: international)
    }

    /// A relative JSON Pointer: a non-negative integer, then `#` or a JSON Pointer.
    static func relativeJSONPointer(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        guard i > 0, !(i > 1 && bytes[0] == UInt8(ascii: "0")) else { return false }
        var rest = Array(bytes[i...])
        if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") {
            // An index adjustment (`0+1/x`), from the later draft of the format.
            rest.removeFirst()
            var j = 0
            while j < rest.count, isDigit(rest[j]) { j += 1 }
            guard j > 0, !(j > 1 && rest[0] == UInt8(ascii: "0")) else { return false }
            rest = Array(rest[j...])
        }
        if rest == [UInt8(ascii: "#")] { return true }
        return JSONPointer.isValid(String(decoding: rest, as: UTF8.self))
    }
}
