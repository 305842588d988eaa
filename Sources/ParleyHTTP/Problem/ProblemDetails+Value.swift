public import Parley

extension ProblemDetails {
    /// Reads a problem from a decoded body: the JSON form (an object whose members are the
    /// problem's), or the XML form of RFC 9457 Appendix B as `ParleyXML` maps it to a value.
    ///
    /// The XML form is recognised by its root: `{"problem": {"@xmlns": "urn:ietf:rfc:7807", …}}`
    /// (a prefixed `p:problem` with `@xmlns:p` too). There every scalar is a string, so
    /// ``status`` is read from its text; namespace declarations are left out of
    /// ``extensions``, and extension members stay as the mapping gave them (an array written as
    /// `<i>` elements is `{"i": [...]}`).
    ///
    /// Members of the wrong type are ignored (RFC 9457 §3.1): ``type`` then stays
    /// ``blankType``, the others `nil`. A ``status`` outside 100…999 is ignored too.
    ///
    /// - Parameter value: A decoded body.
    /// - Returns: `nil` when `value` is not an object.
    public init?(value: Value) {
        if let xml = Self.xmlProblemMembers(in: value, requiringNamespace: true) {
            self.init(members: xml, fromXML: true)
        } else if let object = value.objectValue {
            self.init(members: object, fromXML: false)
        } else {
            return nil
        }
    }

    /// The problem as a value in the JSON form: the standard members present (``type``
    /// always), then the extensions. Any format can encode it; XML prefers ``xmlValue``.
    public var value: Value {
        var object = Value.Object()
        object.append(key: "type", value: .string(type))
        if let title { object.append(key: "title", value: .string(title)) }
        if let status { object.append(key: "status", value: .integer(Int64(status))) }
        if let detail { object.append(key: "detail", value: .string(detail)) }
        if let instance { object.append(key: "instance", value: .string(instance)) }
        for member in extensions where !Self.standardMemberNames.contains(member.key) {
            object.append(key: member.key, value: member.value)
        }
        return .object(object)
    }

    /// The problem as a value in the XML form of RFC 9457 Appendix B, ready for `ParleyXML`:
    /// a `problem` root in the `urn:ietf:rfc:7807` namespace, a child element per member, and
    /// every array written as `<i>` elements.
    public var xmlValue: Value {
        guard case .object(let members) = value else { return value }
        var content = Value.Object()
        content.append(key: "@xmlns", value: .string(Self.xmlNamespace))
        for member in members { content.append(key: member.key, value: Self.itemizingArrays(member.value)) }
        return .object(Value.Object([.init(key: "problem", value: .object(content))]))
    }

    /// Reads the members of an object; `fromXML` reads `status` from text.
    init(members: Value.Object, fromXML: Bool) {
        self.init()
        if case .string(let text)? = members["type"] { type = text }
        if case .string(let text)? = members["title"] { title = text }
        if case .string(let text)? = members["detail"] { detail = text }
        if case .string(let text)? = members["instance"] { instance = text }
        if let value = members["status"] { status = Self.statusCode(value, fromXML: fromXML) }
        extensions = Value.Object(members.filter { !Self.standardMemberNames.contains($0.key) })
    }

    /// The members of an XML-form problem (`{"problem": {…}}` or a prefixed root), without
    /// namespace declarations and with the root's prefix taken off its children; `nil` when
    /// `value` is not one. `requiringNamespace: false` also takes a root outside the namespace.
    static func xmlProblemMembers(in value: Value, requiringNamespace: Bool) -> Value.Object? {
        guard case .object(let document) = value, document.count == 1 else { return nil }
        let root = document[0]
        let prefix: String?
        if root.key == "problem" {
            prefix = nil
        } else if root.key.hasSuffix(":problem") {
            prefix = String(root.key.dropLast(":problem".count))
        } else {
            return nil
        }
        let content: Value.Object
        switch root.value {
        case .object(let object): content = object
        case .string where !requiringNamespace: content = [:]   // `<problem/>` or text only
        default: return nil
        }
        let declaration = prefix.map { "@xmlns:\($0)" } ?? "@xmlns"
        if requiringNamespace && content[declaration] != .string(xmlNamespace) { return nil }
        var members = Value.Object()
        for member in content where member.key != "@xmlns" && !member.key.hasPrefix("@xmlns:") {
            var key = member.key
            if let prefix, key.hasPrefix(prefix + ":") { key.removeFirst(prefix.count + 1) }
            members.append(key: key, value: member.value)
        }
        return members
    }

    /// A status code from a JSON number, or from XML text; `nil` when it is neither or not
    /// in 100…999.
    static func statusCode(_ value: Value, fromXML: Bool) -> Int? {
        let code: Int64?
        switch value {
        case .integer(let integer): code = integer
        case .number(let text): code = Int64(text)
        case .float(let float) where float.rounded() == float && abs(float) < 1e6: code = Int64(float)
        case .string(let text) where fromXML: code = Int64(text.trimmingXMLWhitespace)
        default: code = nil
        }
        guard let code, (100...999).contains(code) else { return nil }
        return Int(code)
    }

    /// Arrays as objects of `i` members, at every depth (RFC 9457 Appendix B).
    static func itemizingArrays(_ value: Value) -> Value {
        switch value {
        case .array(let elements):
            return .object(Value.Object([.init(key: "i", value: .array(elements.map(itemizingArrays)))]))
        case .object(let object):
            return .object(Value.Object(object.map { .init(key: $0.key, value: itemizingArrays($0.value)) }))
        case .tagged(let tag, let inner):
            return .tagged(tag, itemizingArrays(inner))
        default:
            return value
        }
    }
}

extension String {
    /// The text without leading and trailing XML whitespace (space, tab, CR, LF).
    fileprivate var trimmingXMLWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }),
              let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[start...end]
    }
}
