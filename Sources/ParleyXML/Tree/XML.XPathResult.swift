extension XML {
    /// A node an XPath expression selected.
    public enum XPathNode: Sendable, Hashable {
        /// An element, text, CDATA, comment or processing-instruction node.
        case node(Node)
        /// An attribute node.
        case attribute(Attribute)
        /// A namespace node.
        case namespace(Namespace)

        /// The node's XPath string-value.
        public var stringValue: String {
            switch self {
            case .node(let node): node.textContent
            case .attribute(let attribute): attribute.value
            case .namespace(let namespace): namespace.uri
            }
        }
    }

    /// The result of evaluating an XPath 1.0 expression.
    public enum XPathResult: Sendable, Hashable {
        /// A node-set, in document order.
        case nodes([XPathNode])
        /// A string.
        case string(String)
        /// A number.
        case number(Double)
        /// A Boolean.
        case boolean(Bool)

        /// The selected nodes; empty for a result that is not a node-set.
        public var nodes: [XPathNode] {
            if case .nodes(let nodes) = self { return nodes }
            return []
        }

        /// The selected elements.
        public var elements: [Element] {
            nodes.compactMap { node in
                if case .node(.element(let element)) = node { return element }
                return nil
            }
        }

        /// The string-value of each selected node, or the one string a scalar result converts to
        /// (numbers as XPath's `string()` writes them, Booleans as `true`/`false`).
        public var strings: [String] {
            switch self {
            case .nodes(let nodes): nodes.map(\.stringValue)
            case .string(let string): [string]
            case .number(let number):
                [number.isNaN ? "NaN" : number == number.rounded() && abs(number) < 1e15
                    ? String(Int64(number)) : String(number)]
            case .boolean(let value): [value ? "true" : "false"]
            }
        }
    }
}
