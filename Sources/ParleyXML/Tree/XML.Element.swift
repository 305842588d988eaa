extension XML {
    /// An element: a name, attributes, namespace declarations and children in document order.
    ///
    /// ```swift
    /// let feed = try XML.Document(parsing: bytes).root
    /// for entry in feed.children(named: "entry") {
    ///     print(entry.firstChild(named: "title")?.textContent ?? "", entry["id"] ?? "")
    /// }
    /// ```
    ///
    /// An element is a value: copies are independent, and copying one costs one reference
    /// count whatever it holds. The elements of a parsed ``Document`` are views of the parsed
    /// document: reading ``children`` or ``attributes`` makes them, each time, from the parsed
    /// records, and changing an element makes its own copy of its fields first (see
    /// ``isParsed``).
    public struct Element: Sendable, Hashable {
        /// The fields, when the element holds them; `nil` for a view of element `index` of `tree`.
        ///
        /// Plain fields rather than an enum: a getter calls `tree` in place, where taking an
        /// enum's payload retained and released the tree on every read.
        private var fields: Fields?
        /// The parsed tree this element views (``ParsedTree/empty`` once it holds its fields).
        private var tree: ParsedTree
        private var index: Int

        /// The element's name.
        public var name: Name {
            get { if let fields { fields.name } else { tree.name(of: index) } }
            _modify { yield &uniqueFields().name }
        }

        /// The attributes in document order, namespace declarations excluded.
        public var attributes: [Attribute] {
            get { if let fields { fields.attributes } else { tree.attributes(of: index) } }
            _modify { yield &uniqueFields().attributes }
        }

        /// The namespace declarations made on this element, in document order.
        public var namespaces: [Namespace] {
            get { if let fields { fields.namespaces } else { tree.namespaces(of: index) } }
            _modify { yield &uniqueFields().namespaces }
        }

        /// The child nodes in document order.
        ///
        /// For a parsed element (``isParsed``) each read makes the array and the strings of its
        /// text; keep it in a local variable rather than reading it again.
        public var children: [Node] {
            get { if let fields { fields.children } else { tree.children(of: index) } }
            _modify { yield &uniqueFields().children }
        }

        /// Whether this element is a view of a parsed document rather than holding its fields.
        ///
        /// Such an element keeps the whole parsed document alive (its text and records, two to
        /// three times the body for typical markup); an element that is changed holds its own
        /// fields from then on, its children still views.
        public var isParsed: Bool { fields == nil }

        /// Creates an element.
        ///
        /// - Parameters:
        ///   - name: The element's name.
        ///   - attributes: Its attributes.
        ///   - namespaces: The namespace declarations it makes.
        ///   - children: Its child nodes.
        public init(_ name: Name, attributes: [Attribute] = [], namespaces: [Namespace] = [],
                    children: [Node] = []) {
            fields = Fields(name: name, attributes: attributes, namespaces: namespaces, children: children)
            tree = ParsedTree.empty
            index = 0
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

        /// A view of element `index` of a parsed tree.
        init(tree: ParsedTree, index: Int) {
            fields = nil
            self.tree = tree
            self.index = index
        }

        /// The fields to change: made from the parsed tree, or copied if another element shares them.
        private mutating func uniqueFields() -> Fields {
            guard fields != nil else {
                let made = Fields(name: tree.name(of: index), attributes: tree.attributes(of: index),
                                  namespaces: tree.namespaces(of: index), children: tree.children(of: index))
                fields = made
                tree = ParsedTree.empty
                index = 0
                return made
            }
            if !isKnownUniquelyReferenced(&fields) { fields = fields!.copy() }
            return fields!
        }

        public static func == (lhs: Element, rhs: Element) -> Bool {
            if let left = lhs.fields, let right = rhs.fields, left === right { return true }
            if lhs.fields == nil, rhs.fields == nil, lhs.tree === rhs.tree, lhs.index == rhs.index { return true }
            return lhs.name == rhs.name && lhs.attributes == rhs.attributes && lhs.namespaces == rhs.namespaces
                && lhs.children == rhs.children
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(attributes)
            hasher.combine(namespaces)
            hasher.combine(children)
        }
    }
}

extension XML.Element: CustomReflectable {
    /// Shows the name, attributes, namespaces and children, whatever the storage.
    public var customMirror: Mirror {
        Mirror(self, children: ["name": name, "attributes": attributes, "namespaces": namespaces, "children": children],
               displayStyle: .struct)
    }
}

extension XML.Element {
    /// The fields of an element that holds them, shared by its copies until one changes.
    ///
    /// `@unchecked Sendable`: an element writes its fields only when it holds the only reference
    /// (`uniqueFields()`), so fields that two elements or two threads can see are never written.
    private final class Fields: @unchecked Sendable {
        var name: XML.Name
        var attributes: [XML.Attribute]
        var namespaces: [XML.Namespace]
        var children: [XML.Node]

        init(name: XML.Name, attributes: [XML.Attribute], namespaces: [XML.Namespace], children: [XML.Node]) {
            self.name = name
            self.attributes = attributes
            self.namespaces = namespaces
            self.children = children
        }

        func copy() -> Fields {
            Fields(name: name, attributes: attributes, namespaces: namespaces, children: children)
        }
    }
}
