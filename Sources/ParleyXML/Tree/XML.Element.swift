extension XML {
    /// An element: a name, attributes, namespace declarations and children in document order.
    ///
    /// ```swift
    /// let feed = try XML.Document(parsing: bytes).root
    /// for entry in feed.children(named: "entry") {
    ///     print(entry.firstChild(named: "title")?.textContent ?? "", entry["id"] ?? "")
    /// }
    /// ```
    public struct Element: Sendable, Hashable {
        /// The element's name.
        public var name: Name
        /// The attributes in document order, namespace declarations excluded.
        public var attributes: [Attribute]
        /// The namespace declarations made on this element, in document order.
        public var namespaces: [Namespace]
        /// The child nodes in document order.
        public var children: [Node]

        /// Creates an element.
        ///
        /// - Parameters:
        ///   - name: The element's name.
        ///   - attributes: Its attributes.
        ///   - namespaces: The namespace declarations it makes.
        ///   - children: Its child nodes.
        public init(_ name: Name, attributes: [Attribute] = [], namespaces: [Namespace] = [],
                    children: [Node] = []) {
            self.name = name
            self.attributes = attributes
            self.namespaces = namespaces
            self.children = children
        }

        /// Creates an element in no namespace.
        ///
        /// - Parameters:
        ///   - localName: The element's name.
        ///   - attributes: Its attributes.
        ///   - children: Its child nodes.
        public init(_ localName: String, attributes: [Attribute] = [], children: [Node] = []) {
            self.init(Name(localName), attributes: attributes, children: children)
        }
    }
}
