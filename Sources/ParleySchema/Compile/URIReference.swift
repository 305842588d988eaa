/// RFC 3986 references, enough for `$id` and `$ref`: splitting off the fragment and resolving a
/// reference against a base (§5.2, with dot-segment removal).
enum URIReference {
    /// `uri` without its fragment, and the fragment (percent-decoded), if any.
    static func split(_ uri: String) -> (base: String, fragment: String?) {
        guard let hash = uri.firstIndex(of: "#") else { return (uri, nil) }
        let fragment = String(uri[uri.index(after: hash)...])
        return (String(uri[..<hash]), percentDecoded(fragment))
    }

    /// `text` with `%XX` escapes decoded (invalid escapes kept as they are).
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "%"), i + 2 < utf8.count,
                let hi = hexValue(utf8[i + 1]), let lo = hexValue(utf8[i + 2])
            {
                bytes.append(hi << 4 | lo)
                i += 3
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The parts of a URI reference (RFC 3986 Appendix B).
    struct Parts {
        var scheme: String?
        var authority: String?
        var path: String
        var query: String?
        var fragment: String?

        init(_ text: String) {
            var rest = Substring(text)
            if let hash = rest.firstIndex(of: "#") {
                fragment = String(rest[rest.index(after: hash)...])
                rest = rest[..<hash]
            }
            if let question = rest.firstIndex(of: "?") {
                query = String(rest[rest.index(after: question)...])
                rest = rest[..<question]
            }
            if let colon = rest.firstIndex(of: ":"),
                let first = rest.first, first.isLetter,
                rest[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
            {
                scheme = String(rest[..<colon])
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                let end = rest.firstIndex(of: "/") ?? rest.endIndex
                authority = String(rest[..<end])
                rest = rest[end...]
            }
            path = String(rest)
        }

        var text: String {
            var out = ""
            if let scheme { out += scheme + ":" }
            if let authority { out += "//" + authority }
            out += path
            if let query { out += "?" + query }
            if let fragment { out += "#" + fragment }
            return out
        }
    }

    /// `reference` resolved against `base` (RFC 3986 §5.2.2).
    static func resolve(_ reference: String, against base: String) -> String {
        let r = Parts(reference)
        if r.scheme != nil {
            var t = r
            t.path = removeDotSegments(r.path)
            return t.text
        }
        let b = Parts(base)
        var t = Parts("")
        t.scheme = b.scheme
        t.fragment = r.fragment
        if r.authority != nil {
            t.authority = r.authority
            t.path = removeDotSegments(r.path)
            t.query = r.query
        } else {
            t.authority = b.authority
            if r.path.isEmpty {
                t.path = b.path
                t.query = r.query ?? b.query
            } else {
                if r.path.hasPrefix("/") {
                    t.path = removeDotSegments(r.path)
                } else if b.authority != nil && b.path.isEmpty {
                    t.path = removeDotSegments("/" + r.path)
                } else if let slash = b.path.lastIndex(of: "/") {
                    t.path = removeDotSegments(String(b.path[...slash]) + r.path)
                } else {
                    t.path = removeDotSegments(r.path)
                }
                t.query = r.query
            }
        }
        return t.text
    }

    /// RFC 3986 §5.2.4.
    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (i, segment) in segments.enumerated() {
            let last = i == segments.count - 1
            if segment == "." {
                if last { output.append("") }
            } else if segment == ".." {
                if output.count > 1 || (output.count == 1 && !output[0].isEmpty) { output.removeLast() }
                if last { output.append("") }
            } else {
                output.append(segment)
            }
        }
        let joined = output.joined(separator: "/")
        return path.hasPrefix("/") && !joined.hasPrefix("/") ? "/" + joined : joined
    }
}

/// RFC 6901 JSON Pointers.
enum JSONPointer {
    /// The reference tokens of `pointer` (`/a~1b/c~0d` → `["a/b", "c~d"]`); `nil` if it does
    /// not start with `/` and is not empty.
    static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacing("~1", with: "/").replacing("~0", with: "~")
        }
    }

    /// One token escaped for a pointer.
    static func escape(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    /// A pointer made of `tokens`.
    static func pointer(_ tokens: [String]) -> String {
        tokens.map { "/" + escape($0) }.joined()
    }

    /// Whether `text` is a valid JSON Pointer (RFC 6901 §3).
    static func isValid(_ text: String) -> Bool {
        if text.isEmpty { return true }
        guard text.hasPrefix("/") else { return false }
        var scalars = text.unicodeScalars.makeIterator()
        while let c = scalars.next() {
            if c == "~" {
                guard let n = scalars.next(), n == "0" || n == "1" else { return false }
            }
        }
        return true
    }
}
