public import Parley

extension XML {
    /// A parsed document: the root element and the comments and processing instructions around it.
    ///
    /// ```swift
    /// let document = try XML.Document(parsing: body)
    /// let titles = try document.xpath("/feed/entry/title").strings
    /// ```
    ///
    /// Parsing applies ``XMLFormat``'s secure defaults. The document type declaration is not kept;
    /// internal entities are expanded into the text and attribute values.
    public struct Document: Sendable, Hashable {
        /// Comments and processing instructions before the root element.
        public var prolog: [Node]
        /// The root (document) element.
        public var root: Element
        /// Comments and processing instructions after the root element.
        public var epilog: [Node]

        /// Creates a document.
        ///
        /// - Parameters:
        ///   - root: The root element.
        ///   - prolog: Comments and processing instructions before it.
        ///   - epilog: Comments and processing instructions after it.
        public init(root: Element, prolog: [Node] = [], epilog: [Node] = []) {
            self.root = root
            self.prolog = prolog
            self.epilog = epilog
        }

        /// Parses a document.
        ///
        /// - Parameters:
        ///   - bytes: The document, in any encoding libxml2 detects (byte-order mark or declaration).
        ///   - limits: The limits to apply: `maxBodyBytes`, `maxDepth`, `maxNodes` (elements) and
        ///     `maxExpansionRatio`.
        /// - Throws: `FormatError` with code `.malformed` or `.truncated` (with line and column)
        ///   for a document that is not well-formed, `.limitExceeded` when a limit is reached.
        public init<Bytes: Sequence<UInt8>>(parsing bytes: Bytes, limits: DecodingLimits = .standard) throws {
            self = try withContiguousBytes(of: bytes) { buffer in
                let builder = TreeBuilder(limits: limits)
                let parser = try SAXParser(bytes: buffer, handler: builder)
                try parser.parse()
                guard let document = builder.document else {
                    throw FormatError(.malformed, format: "xml", "no root element")
                }
                return document
            }
        }
    }
}

/// Builds an ``XML/Document`` from SAX events with explicit stacks (no recursion).
///
/// The children of the open elements wait in one buffer, in document order; an element's end
/// moves its children out of it into an array of exactly their number, so no child array grows
/// by reallocation and no node is copied or retained on the way.
final class TreeBuilder: SAXHandler {
    struct Tree {
        var prolog: [XML.Node] = []
        var epilog: [XML.Node] = []
        /// The open elements (`openCount` of `openCapacity`), children not yet attached, each
        /// with where its children begin in `nodes`.
        var openElements: UnsafeMutablePointer<(XML.Element, Int)>?
        var openCount = 0
        var openCapacity = 0
        var root: XML.Element?
        /// The children of the open elements: `nodeCount` of `nodeCapacity` initialised.
        var nodes: UnsafeMutablePointer<XML.Node>?
        var nodeCount = 0
        var nodeCapacity = 0

        mutating func append(_ node: consuming XML.Node) {
            if openCount == 0 {
                if root == nil { prolog.append(node) } else { epilog.append(node) }
                return
            }
            if nodeCount == nodeCapacity { grow() }
            (nodes.unsafelyUnwrapped + nodeCount).initialize(to: node)
            nodeCount += 1
        }

        mutating func grow() {
            let capacity = max(64, 2 * nodeCapacity)
            let grown = UnsafeMutablePointer<XML.Node>.allocate(capacity: capacity)
            if let nodes {
                grown.moveInitialize(from: nodes, count: nodeCount)
                nodes.deallocate()
            }
            nodes = grown
            nodeCapacity = capacity
        }

        /// Opens an element: its children gather in `nodes` until it closes.
        mutating func open(_ element: consuming XML.Element) {
            if openCount == openCapacity { growOpen() }
            (openElements.unsafelyUnwrapped + openCount).initialize(to: (element, nodeCount))
            openCount += 1
        }

        mutating func growOpen() {
            let capacity = max(16, 2 * openCapacity)
            let grown = UnsafeMutablePointer<(XML.Element, Int)>.allocate(capacity: capacity)
            if let openElements {
                grown.moveInitialize(from: openElements, count: openCount)
                openElements.deallocate()
            }
            openElements = grown
            openCapacity = capacity
        }

        /// Closes the innermost element: its children move from `nodes` into its own array, and
        /// the element moves into its parent's children (or becomes the root).
        mutating func close() {
            guard openCount > 0, let openElements else { return }
            openCount -= 1
            let slot = openElements + openCount
            let first = slot.pointee.1
            let count = nodeCount - first
            if count > 0, let nodes {
                slot.pointee.0.children = [XML.Node](unsafeUninitializedCapacity: count) { buffer, initialized in
                    buffer.baseAddress.unsafelyUnwrapped.moveInitialize(from: nodes + first, count: count)
                    initialized = count
                }
                nodeCount = first
            }
            let (element, _) = slot.move()
            if openCount == 0 {
                root = element
            } else {
                append(.element(element))
            }
        }

        /// Releases the elements and nodes left open by a failed parse.
        mutating func release() {
            openElements?.deinitialize(count: openCount)
            openElements?.deallocate()
            openElements = nil
            openCount = 0
            openCapacity = 0
            nodes?.deinitialize(count: nodeCount)
            nodes?.deallocate()
            nodes = nil
            nodeCount = 0
            nodeCapacity = 0
        }
    }

    /// Behind a pointer so appending pays no dynamic exclusivity check.
    private let tree: UnsafeMutablePointer<Tree>

    init(limits: DecodingLimits) {
        tree = .allocate(capacity: 1)
        tree.initialize(to: Tree())
        super.init(limits: limits)
    }

    deinit {
        tree.pointee.release()
        tree.deinitialize(count: 1)
        tree.deallocate()
    }

    var document: XML.Document? {
        tree.pointee.root.map { XML.Document(root: $0, prolog: tree.pointee.prolog, epilog: tree.pointee.epilog) }
    }

    override func emit(_ event: borrowing XML.EventView) {
        switch event.kind {
        case .startElement:
            let attributes = event.attributes.copied()
            // Reading the values may have stopped the parse (maxExpansionRatio).
            guard !event.parseStopped else { return }
            tree.pointee.open(XML.Element(event.name, attributes: attributes, namespaces: event.namespaces.copied()))
        case .endElement:
            tree.pointee.close()
        case .text:
            // Outside the root only whitespace can occur; it is not kept.
            if tree.pointee.openCount > 0 { tree.pointee.append(.text(event.text)) }
        case .cdata:
            tree.pointee.append(.cdata(event.text))
        case .comment:
            tree.pointee.append(.comment(event.text))
        case .processingInstruction:
            tree.pointee.append(.processingInstruction(target: event.target, data: event.text))
        }
    }
}
