import Parley

/// A parsed document in flat buffers: one record per element, attribute and child node, and
/// every text and attribute value in one byte buffer. Immutable once built.
///
/// The elements of a parsed ``XML/Document`` are views of it (a tree and an element's index):
/// reading an element's ``XML/Element/children`` or ``XML/Element/attributes`` makes them from
/// the records, so parsing allocates a handful of buffers rather than objects, arrays and
/// strings for every node, and a caller pays for the nodes it reads.
///
/// `@unchecked Sendable`: every field is a `let` whose memory is written before `init` returns
/// (by ``Builder``) and only read afterwards.
final class ParsedTree: @unchecked Sendable {
    /// What a child node is.
    enum NodeKind: UInt8 {
        case element, text, cdata, comment, processingInstruction
    }

    /// A child node: an element's index, or where a leaf's text is (for a processing
    /// instruction, its target's `targetCount` bytes followed by its data).
    struct NodeRecord {
        var start: Int
        var count: Int
        var kind: NodeKind
        var targetCount: UInt32 = 0
    }

    /// An element: its name's index in `names`, and where its attributes, namespace
    /// declarations and children are.
    struct ElementRecord {
        var name: Int
        var attributeStart: Int
        var attributeCount = 0
        var namespaceStart: Int
        var namespaceCount = 0
        var childStart = 0
        var childCount = 0
    }

    /// An attribute: its name's index in `names` and where its value is (as for a node's text).
    struct AttributeRecord {
        var name: Int
        var valueStart: Int
        var valueCount: Int
    }

    /// The element and attribute names, each made once per parse (see `SAXHandler.State.nameTable`).
    private let names: [XML.Name]
    private let namespaces: [XML.Namespace]
    /// The elements in document order: the root is element 0.
    private let elements: UnsafeMutableBufferPointer<ElementRecord>
    private let attributes: UnsafeMutableBufferPointer<AttributeRecord>
    /// Every element's children, each element's together.
    private let nodes: UnsafeMutableBufferPointer<NodeRecord>
    private let bytes: UnsafeMutableBufferPointer<UInt8>

    fileprivate init(
        names: [XML.Name], namespaces: [XML.Namespace], elements: UnsafeMutableBufferPointer<ElementRecord>,
        attributes: UnsafeMutableBufferPointer<AttributeRecord>, nodes: UnsafeMutableBufferPointer<NodeRecord>,
        bytes: UnsafeMutableBufferPointer<UInt8>
    ) {
        self.names = names
        self.namespaces = namespaces
        self.elements = elements
        self.attributes = attributes
        self.nodes = nodes
        self.bytes = bytes
    }

    deinit {
        elements.deallocate()
        attributes.deallocate()
        nodes.deallocate()
        bytes.deallocate()
    }

    func name(of element: Int) -> XML.Name {
        names[elements[element].name]
    }

    func attributes(of element: Int) -> [XML.Attribute] {
        let record = elements[element]
        guard record.attributeCount > 0 else { return [] }
        return (record.attributeStart..<record.attributeStart &+ record.attributeCount).map { index in
            let attribute = attributes[index]
            return XML.Attribute(names[attribute.name], value: string(attribute.valueStart, attribute.valueCount))
        }
    }

    func namespaces(of element: Int) -> [XML.Namespace] {
        let record = elements[element]
        guard record.namespaceCount > 0 else { return [] }
        return Array(namespaces[record.namespaceStart..<record.namespaceStart + record.namespaceCount])
    }

    func children(of element: Int) -> [XML.Node] {
        let record = elements[element]
        guard record.childCount > 0 else { return [] }
        return (record.childStart..<record.childStart &+ record.childCount).map { node(nodes[$0]) }
    }

    private func node(_ record: NodeRecord) -> XML.Node {
        switch record.kind {
        case .element: .element(XML.Element(tree: self, index: record.start))
        case .text: .text(string(record.start, record.count))
        case .cdata: .cdata(string(record.start, record.count))
        case .comment: .comment(string(record.start, record.count))
        case .processingInstruction:
            .processingInstruction(
                target: string(record.start, Int(record.targetCount)),
                data: string(record.start &+ Int(record.targetCount), record.count &- Int(record.targetCount)))
        }
    }

    /// The text at `start` and `count` of a record's bytes.
    private func string(_ start: Int, _ count: Int) -> String {
        String(utf8: UnsafeBufferPointer(rebasing: bytes[start..<start &+ count]))
    }
}

extension ParsedTree {
    /// Writes a tree from a parse's events in document order, with explicit stacks (no
    /// recursion): the children of the open elements wait in `pending`, and an element's end
    /// moves its children together into `nodes`.
    struct Builder: ~Copyable {
        private var elements: RecordBuffer<ElementRecord>
        private var attributes: RecordBuffer<AttributeRecord>
        private var nodes: RecordBuffer<NodeRecord>
        private var bytes: RecordBuffer<UInt8>
        private var namespaces: [XML.Namespace] = []
        /// The children of the open elements, in document order.
        private var pending = RecordBuffer<NodeRecord>()
        /// The open elements: each one's index and where its children begin in `pending`.
        private var open = RecordBuffer<(element: Int, firstChild: Int)>(capacity: 16)

        /// Creates a builder whose buffers fit a document of `inputBytes` bytes of typical
        /// markup, so that they rarely grow (growing copies them and touches fresh memory).
        init(reservingFor inputBytes: Int = 0) {
            elements = RecordBuffer(capacity: inputBytes / 64)
            attributes = RecordBuffer(capacity: inputBytes / 64)
            nodes = RecordBuffer(capacity: inputBytes / 16)
            bytes = RecordBuffer(capacity: inputBytes)
        }

        /// Whether an element is open (the root has begun and not ended).
        var isInsideRoot: Bool { open.count > 0 }
        /// Whether the root element has ended.
        var hasRoot: Bool { open.count == 0 && elements.count > 0 }

        /// Opens an element named by `name` (an index in the name table); its attributes and
        /// namespace declarations follow.
        mutating func openElement(name: Int) {
            let index = elements.count
            if isInsideRoot { pending.append(NodeRecord(start: index, count: 0, kind: .element)) }
            elements.append(
                ElementRecord(name: name, attributeStart: attributes.count, namespaceStart: namespaces.count))
            open.append((index, pending.count))
        }

        /// Adds an attribute to the element just opened.
        mutating func addAttribute(name: Int, value: UnsafeBufferPointer<UInt8>) {
            attributes.append(AttributeRecord(name: name, valueStart: bytes.count, valueCount: value.count))
            bytes.append(contentsOf: value)
            elements[elements.count - 1].attributeCount += 1
        }

        /// Adds a namespace declaration to the element just opened.
        mutating func addNamespace(_ namespace: XML.Namespace) {
            namespaces.append(namespace)
            elements[elements.count - 1].namespaceCount += 1
        }

        /// Adds a text, CDATA section or comment to the innermost open element.
        mutating func addLeaf(_ kind: NodeKind, _ text: UnsafeBufferPointer<UInt8>) {
            pending.append(NodeRecord(start: bytes.count, count: text.count, kind: kind))
            bytes.append(contentsOf: text)
        }

        /// Adds a processing instruction to the innermost open element.
        mutating func addProcessingInstruction(target: UnsafeBufferPointer<UInt8>, data: UnsafeBufferPointer<UInt8>) {
            pending.append(
                NodeRecord(
                    start: bytes.count, count: target.count + data.count, kind: .processingInstruction,
                    targetCount: UInt32(truncatingIfNeeded: target.count)))
            bytes.append(contentsOf: target)
            bytes.append(contentsOf: data)
        }

        /// Closes the innermost open element: its children move to `nodes` together.
        mutating func closeElement() {
            guard open.count > 0 else { return }
            let (element, firstChild) = open[open.count - 1]
            open.truncate(to: open.count - 1)
            elements[element].childStart = nodes.count
            elements[element].childCount = pending.count - firstChild
            nodes.moveTail(of: &pending, from: firstChild)
        }

        /// The finished tree, whose name table is `names`.
        consuming func finish(names: [XML.Name]) -> ParsedTree {
            ParsedTree(names: names, namespaces: namespaces, elements: elements.take(), attributes: attributes.take(),
                       nodes: nodes.take(), bytes: bytes.take())
        }
    }
}

extension ParsedTree {
    /// A tree with nothing in it, to hold a place.
    static let empty = Builder().finish(names: [])
}
