extension XML.Element {
    /// The child elements, in document order.
    public var childElements: [XML.Element] {
        children.compactMap(\.element)
    }

    /// The child elements whose qualified name (`prefix:local`, or `local`) is `qualifiedName`.
    ///
    /// - Parameter qualifiedName: The name as written in the document.
    /// - Returns: The matching children in document order.
    /// - Complexity: O(*n*) in the number of children.
    public func children(named qualifiedName: String) -> [XML.Element] {
        children.compactMap { node in
            guard case .element(let element) = node, element.name.qualifiedName == qualifiedName else { return nil }
            return element
        }
    }

    /// The child elements with local name `localName` in the namespace `namespaceURI`,
    /// whatever prefix the document used.
    ///
    /// - Parameters:
    ///   - localName: The local name.
    ///   - namespaceURI: The namespace URI, or `nil` for no namespace.
    /// - Returns: The matching children in document order.
    public func children(named localName: String, namespaceURI: String?) -> [XML.Element] {
        children.compactMap { node in
            guard case .element(let element) = node, element.name.localName == localName,
                  element.name.namespaceURI == namespaceURI else { return nil }
            return element
        }
    }

    /// The first child element whose qualified name is `qualifiedName`, or `nil`.
    ///
    /// - Parameter qualifiedName: The name as written in the document.
    /// - Returns: The first matching child.
    public func firstChild(named qualifiedName: String) -> XML.Element? {
        for node in children {
            if case .element(let element) = node, element.name.qualifiedName == qualifiedName { return element }
        }
        return nil
    }

    /// The value of the attribute whose qualified name is `qualifiedName`, or `nil`.
    ///
    /// - Parameter qualifiedName: The attribute's name as written (`id`, `xml:lang`).
    public subscript(qualifiedName: String) -> String? {
        attributes.first { $0.name.qualifiedName == qualifiedName }?.value
    }

    /// The value of the attribute with local name `localName` in namespace `namespaceURI`, or `nil`.
    ///
    /// - Parameters:
    ///   - localName: The attribute's local name.
    ///   - namespaceURI: The namespace URI, or `nil` for an unprefixed attribute.
    /// - Returns: The value, or `nil` when the element has no such attribute.
    public func attribute(_ localName: String, namespaceURI: String?) -> String? {
        attributes.first { $0.name.localName == localName && $0.name.namespaceURI == namespaceURI }?.value
    }

    /// The concatenated text and CDATA of this element and all its descendants, in document
    /// order (the XPath string-value).
    ///
    /// - Complexity: O(*n*) in the number of descendants; uses no recursion.
    public var textContent: String {
        var result = ""
        var stack: [ArraySlice<XML.Node>] = [children[...]]
        while var nodes = stack.popLast() {
            guard let node = nodes.popFirst() else { continue }
            stack.append(nodes)
            switch node {
            case .text(let text), .cdata(let text): result += text
            case .element(let element): stack.append(element.children[...])
            case .comment, .processingInstruction: break
            }
        }
        return result
    }
}
