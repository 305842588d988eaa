import Parley

extension XMLWriter {
    /// Appends a node and its descendants.
    mutating func node(_ node: XML.Node) throws(FormatError) {
        switch node {
        case .element(let element): try self.element(element)
        case .text(let text): try self.text(text)
        case .cdata(let text):
            // A "]]>" inside is split across two sections.
            raw("<![CDATA[")
            try XMLEscaping.checkRepresentable(text, format: "xml")
            raw(text.replacing("]]>", with: "]]]]><![CDATA[>"))
            raw("]]>")
        case .comment(let text):
            guard !text.contains("--"), !text.hasSuffix("-") else {
                throw FormatError(.unsupportedValue, format: "xml", "a comment cannot contain \"--\" or end with \"-\"")
            }
            try XMLEscaping.checkRepresentable(text, format: "xml")
            raw("<!--" + text + "-->")
        case .processingInstruction(let target, let data):
            guard XMLWriter.isValidName(target), target.lowercased() != "xml", !data.contains("?>") else {
                throw FormatError(.unsupportedValue, format: "xml", "invalid processing instruction \(target)")
            }
            try XMLEscaping.checkRepresentable(data, format: "xml")
            raw("<?" + target + (data.isEmpty ? "" : " " + data) + "?>")
        }
    }

    private mutating func name(_ name: XML.Name) throws(FormatError) {
        let qualified = name.qualifiedName
        guard XMLWriter.isValidName(qualified) else {
            throw FormatError(.unsupportedValue, format: "xml", "\"\(qualified)\" is not a valid XML name")
        }
        raw(qualified)
    }

    /// Appends an element, its namespace declarations, attributes and children.
    mutating func element(_ element: XML.Element) throws(FormatError) {
        raw("<")
        try name(element.name)
        for namespace in element.namespaces {
            raw(" " + namespace.attributeName + "=\"")
            try attributeValue(namespace.uri)
            raw("\"")
        }
        for attribute in element.attributes {
            raw(" ")
            try name(attribute.name)
            raw("=\"")
            try attributeValue(attribute.value)
            raw("\"")
        }
        if element.children.isEmpty {
            raw("/>")
            return
        }
        raw(">")
        for child in element.children { try node(child) }
        raw("</")
        try name(element.name)
        raw(">")
    }
}

extension XML.Document {
    /// The document as UTF-8 XML text with an XML declaration.
    ///
    /// Text, attribute values and CDATA are escaped so that parsing the result gives this
    /// document back; namespace declarations are written where ``XML/Element/namespaces`` holds them.
    ///
    /// - Returns: The serialised bytes.
    /// - Throws: `FormatError` `.unsupportedValue` for an invalid name, a character XML 1.0
    ///   cannot hold, `--` in a comment or `?>` in a processing instruction.
    public func serialized() throws -> [UInt8] {
        var writer = XMLWriter(declaration: true)
        for node in prolog { try writer.node(node) }
        try writer.element(root)
        for node in epilog { try writer.node(node) }
        return writer.bytes
    }
}

extension XML.Element {
    /// The element as XML text, without an XML declaration.
    ///
    /// - Returns: The escaped XML text.
    /// - Throws: As ``XML/Document/serialized()``.
    public func xmlString() throws -> String {
        var writer = XMLWriter(declaration: false)
        try writer.element(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
