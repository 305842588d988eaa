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

/// Builds an ``XML/Document`` from SAX events with an explicit stack (no recursion).
final class TreeBuilder: SAXHandler {
    struct Tree {
        var prolog: [XML.Node] = []
        var epilog: [XML.Node] = []
        var stack: [XML.Element] = []
        var root: XML.Element?

        mutating func append(_ node: XML.Node) {
            if stack.isEmpty {
                if root == nil { prolog.append(node) } else { epilog.append(node) }
            } else {
                stack[stack.count - 1].children.append(node)
            }
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
        tree.deinitialize(count: 1)
        tree.deallocate()
    }

    var document: XML.Document? {
        tree.pointee.root.map { XML.Document(root: $0, prolog: tree.pointee.prolog, epilog: tree.pointee.epilog) }
    }

    override func handleStartElement(_ name: XML.Name, attributes: [XML.Attribute], namespaces: [XML.Namespace]) {
        tree.pointee.stack.append(XML.Element(name, attributes: attributes, namespaces: namespaces))
    }

    override func handleEndElement(_ name: XML.Name) {
        guard let element = tree.pointee.stack.popLast() else { return }
        if tree.pointee.stack.isEmpty {
            tree.pointee.root = element
        } else {
            tree.pointee.stack[tree.pointee.stack.count - 1].children.append(.element(element))
        }
    }

    override func handleText(_ text: String) {
        // Outside the root only whitespace can occur; it is not kept.
        if !tree.pointee.stack.isEmpty { tree.pointee.append(.text(text)) }
    }

    override func handleCDATA(_ text: String) { tree.pointee.append(.cdata(text)) }
    override func handleComment(_ text: String) { tree.pointee.append(.comment(text)) }
    override func handleProcessingInstruction(target: String, data: String) {
        tree.pointee.append(.processingInstruction(target: target, data: data))
    }
}
