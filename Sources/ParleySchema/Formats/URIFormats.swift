/// RFC 3986 URIs and references, RFC 3987 IRIs, and RFC 6570 URI templates.
enum URIFormats {
    static func isUnreserved(_ c: UInt8) -> Bool {
        FormatChecks.isAlpha(c) || FormatChecks.isDigit(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
            || c == UInt8(ascii: "_") || c == UInt8(ascii: "~")
    }

    static func isSubDelimiter(_ c: UInt8) -> Bool {
        "!$&'()*+,;=".utf8.contains(c)
    }

    /// Whether every scalar of `text` is allowed, given extra ASCII characters and percent escapes.
    static func charactersAllowed(_ text: Substring, extra: String, international: Bool) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if s == "%" {
                guard i + 2 < scalars.count, scalars[i + 1].isASCII, scalars[i + 2].isASCII,
                    URIReference.hexValue(UInt8(scalars[i + 1].value)) != nil,
                    URIReference.hexValue(UInt8(scalars[i + 2].value)) != nil
                else { return false }
                i += 3
                continue
            }
            if s.isASCII {
                let c = UInt8(s.value)
                guard isUnreserved(c) || isSubDelimiter(c) || extra.utf8.contains(c) else { return false }
            } else {
                guard international, s.value >= 0xA0, !(0xFDD0...0xFDEF).contains(s.value), s.value & 0xFFFE != 0xFFFE
                else { return false }
            }
            i += 1
        }
        return true
    }

    /// Whether `text` is a URI (`requireScheme`) or a URI reference; IRIs with `international`.
    static func valid(_ text: String, requireScheme: Bool, international: Bool) -> Bool {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            guard charactersAllowed(rest[rest.index(after: hash)...], extra: ":@/?", international: international)
            else { return false }
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            guard charactersAllowed(rest[rest.index(after: question)...], extra: ":@/?", international: international)
            else { return false }
            rest = rest[..<question]
        }
        var hasScheme = false
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains("/") {
            let scheme = rest[..<colon].utf8
            guard let first = scheme.first, FormatChecks.isAlpha(first),
                scheme.allSatisfy({ FormatChecks.isAlpha($0) || FormatChecks.isDigit($0) || "+-.".utf8.contains($0) })
            else { return false }
            hasScheme = true
            rest = rest[rest.index(after: colon)...]
        }
        if requireScheme && !hasScheme { return false }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            guard authority(rest[..<end], international: international) else { return false }
            rest = rest[end...]
        }
        return charactersAllowed(rest, extra: ":@/", international: international)
    }

    /// `[userinfo "@"] host [":" port]`.
    static func authority(_ text: Substring, international: Bool) -> Bool {
        var host = text
        if let at = host.lastIndex(of: "@") {
            guard charactersAllowed(host[..<at], extra: ":", international: international) else { return false }
            host = host[host.index(after: at)...]
        }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let literal = host[host.index(after: host.startIndex)..<close]
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), after.dropFirst().utf8.allSatisfy(FormatChecks.isDigit) else {
                    return false
                }
            }
            if literal.hasPrefix("v") || literal.hasPrefix("V") { return true }  // IPvFuture
            return FormatChecks.ipv6(String(literal))
        }
        if let colon = host.lastIndex(of: ":") {
            guard host[host.index(after: colon)...].utf8.allSatisfy(FormatChecks.isDigit) else { return false }
            host = host[..<colon]
        }
        return charactersAllowed(host, extra: "", international: international)
    }

    /// An RFC 6570 template: literals and `{` expressions `}` of variable specs.
    static func template(_ text: String) -> Bool {
        var inExpression = false
        var expression = ""
        for scalar in text.unicodeScalars {
            if inExpression {
                if scalar == "}" {
                    guard templateExpression(expression) else { return false }
                    inExpression = false
                    expression = ""
                } else if scalar == "{" {
                    return false
                } else {
                    expression.unicodeScalars.append(scalar)
                }
            } else if scalar == "{" {
                inExpression = true
            } else if scalar.value < 0x21 || scalar.value == 0x7F || scalar == "}" || scalar == "\"" || scalar == "<"
                || scalar == ">"
                || scalar == "\\" || scalar == "^" || scalar == "`" || scalar == "|"
            {
                return false
            }
        }
        return !inExpression
    }

    static func templateExpression(_ text: String) -> Bool {
        var body = Substring(text)
        if let first = body.first, "+#./;?&=,!@|".contains(first) { body = body.dropFirst() }
        guard !body.isEmpty else { return false }
        for spec in body.split(separator: ",", omittingEmptySubsequences: false) {
            var name = spec
            if name.hasSuffix("*") {
                name = name.dropLast()
            } else if let colon = name.firstIndex(of: ":") {
                let length = name[name.index(after: colon)...]
                guard !length.isEmpty, length.count <= 4, length.utf8.allSatisfy(FormatChecks.isDigit),
                    length.first != "0"
                else { return false }
                name = name[..<colon]
            }
            guard !name.isEmpty, charactersAllowedInVariable(name), !name.hasPrefix("."), !name.hasSuffix("."),
                !name.contains("..")
            else { return false }
        }
        return true
    }

    static func charactersAllowedInVariable(_ name: Substring) -> Bool {
        name.utf8.allSatisfy {
            FormatChecks.isAlpha($0) || FormatChecks.isDigit($0) || $0 == UInt8(ascii: "_")
                || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "%")
        }
    }
}
