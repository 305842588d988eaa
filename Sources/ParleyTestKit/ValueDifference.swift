import Parley

/// Where two values first differ, and a short rendering of values for conformance messages.
enum ValueDifference {
    /// The first difference between `original` and `decoded`, as `at $.key[1]: … came back as …`,
    /// or `nil` when they are equal.
    static func first(between original: Value, and decoded: Value, at path: String = "$") -> String? {
        if original == decoded { return nil }
        switch (original, decoded) {
        case (.array(let left), .array(let right)):
            if left.count != right.count {
                return "at \(path): an array of \(left.count) elements came back with \(right.count)"
            }
            for index in left.indices {
                if let found = first(between: left[index], and: right[index], at: "\(path)[\(index)]") { return found }
            }
        case (.object(let left), .object(let right)):
            let leftKeys = left.map(\.key), rightKeys = right.map(\.key)
            let missing = leftKeys.filter { !rightKeys.contains($0) }
            let extra = rightKeys.filter { !leftKeys.contains($0) }
            if !missing.isEmpty || !extra.isEmpty {
                let quoted = { (keys: [String]) in keys.map { "\"\($0)\"" }.joined(separator: ", ") }
                let parts = [missing.isEmpty ? nil : "member \(quoted(missing)) went missing",
                             extra.isEmpty ? nil : "member \(quoted(extra)) appeared"]
                return "at \(path): " + parts.compactMap { $0 }.joined(separator: ", ")
            }
            if leftKeys != rightKeys {
                return "at \(path): members \(leftKeys) came back in the order \(rightKeys)"
            }
            for (l, r) in zip(left, right) {
                if let found = first(between: l.value, and: r.value, at: "\(path).\(l.key)") { return found }
            }
        case (.tagged(let leftTag, let leftValue), .tagged(let rightTag, let rightValue)) where leftTag == rightTag:
            return first(between: leftValue, and: rightValue, at: "\(path)!\(leftTag)")
        default:
            break
        }
        return "at \(path): \(describe(original)) came back as \(describe(decoded))"
    }

    /// A value and its kind: `36 (integer)`, `36.0 (float)`.
    static func describe(_ value: Value) -> String {
        "\(render(value)) (\(value.kindName))"
    }

    /// A compact, JSON-like rendering, cut to about `maxCharacters`.
    static func render(_ value: Value, maxCharacters: Int = 160) -> String {
        var text = ""
        func write(_ value: Value) {
            guard text.count <= maxCharacters else { return }
            switch value {
            case .null: text += "null"
            case .bool(let bool): text += "\(bool)"
            case .integer(let integer): text += "\(integer)"
            case .float(let double): text += "\(double)"
            case .number(let number): text += number
            case .string(let string): text += string.debugDescription
            case .bytes(let bytes): text += "<\(bytes.count) bytes>"
            case .date(let date): text += "\(date)"
            case .array(let elements):
                text += "["
                for (index, element) in elements.enumerated() {
                    if index > 0 { text += ", " }
                    write(element)
                }
                text += "]"
            case .object(let object):
                text += "{"
                for (index, member) in object.enumerated() {
                    if index > 0 { text += ", " }
                    text += member.key.debugDescription + ": "
                    write(member.value)
                }
                text += "}"
            case .tagged(let tag, let inner):
                text += "!\(tag) "
                write(inner)
            }
        }
        write(value)
        return text.count > maxCharacters ? String(text.prefix(maxCharacters)) + "…" : text
    }
}
