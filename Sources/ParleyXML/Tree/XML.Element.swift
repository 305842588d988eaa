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
        private enum Storage {
            case built(Fields)
            case parsed(ParsedTree, index: Int)
        }

        private var storage: Storage

        /// The element's name.
        public var name: Name {
            get { read { $0.name } parsed: { $0.name(of: $1) } }
            _modify { yield &uniqueFields().name }
        }

        /// The attributes in document order, namespace declarations excluded.
        public var attributes: [Attribute] {
            get { read { $0.attributes } parsed: { $0.attributes(of: $1) } }
            _modify { yield &uniqueFields().attributes }
        }

        /// The namespace declarations made on this element, in document order.
        public var namespaces: [Namespace] {
            get { read { $0.namespaces } parsed: { $0.namespaces(of: $1) } }
            _modify { yield &uniqueFields().namespaces }
        }

        /// The child nodes in document order.
        ///
        /// For a parsed element (``isParsed``) each read makes the array and the strings of its
        /// text; keep it in a local variable rather than reading it again.
        public var children: [Node] {
            get { read { $0.children } parsed: { $0.children(of: $1) } }
            _modify { yield &uniqueFields().children }
        }

        /// Whether this element is a view of a parsed document rather than holding its fields.
        ///
        /// Such an element keeps the whole parsed document alive (its text and records, two to
        /// three times the body for typical markup); an element that is changed holds its own
        /// fields from then on, its children still views.
        public var isParsed: Bool {
            if case .parsed = storage { return true }
            return false
        }

        /// Creates an element.
        ///
        /// - Parameters:
        ///   - name: The element's name.
        ///   - attributes: Its attributes.
        ///   - namespaces: The namespace declarations it makes.
        ///   - children: Its child nodes.
        public init(_ name: Name, attributes: [Attribute] = [], namespaces: [Namespace] = [],
                    children: [Node] = []) {
            storage = .built(Fields(name: name, attributes: attributes, namespaces: namespaces, children: children))
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
            storage = .parsed(tree, index: index)
        }

        /// A field: held, or made from the parsed tree.
        private func read<Field>(_ held: (Fields) -> Field, parsed: (ParsedTree, Int) -> Field) -> Field {
            switch storage {
            case .built(let fields): held(fields)
            case .parsed(let tree, let index): parsed(tree, index)
            }
        }

        /// The fields to change: made from the parsed tree, or copied if another element shares them.
        private mutating func uniqueFields() -> Fields {
            switch storage {
            case .parsed(let tree, let index):
                let fields = Fields(name: tree.name(of: index), attributes: tree.attributes(of: index),
                                    namespaces: tree.namespaces(of: index), children: tree.children(of: index))
                storage = .built(fields)
                return fields
            case .built(var fields):
                // Drop this element's own reference while checking, so `fields` counts only others.
                storage = .parsed(ParsedTree.empty, index: 0)
                if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
                storage = .built(fields)
                return fields
            }
        }

        public static func == (lhs: Element, rhs: Element) -> Bool {
            switch (lhs.storage, rhs.storage) {
            case (.built(let left), .built(let right)) where left === right: return true
            case (.parsed(let left, let leftIndex), .parsed(let right, let rightIndex))
                where left === right && leftIndex == rightIndex: return true
            default:
                return lhs.name == rhs.name && lhs.attributes == rhs.attributes && lhs.namespaces == rhs.namespaces
                    && lhs.children == rhs.children
            }
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
