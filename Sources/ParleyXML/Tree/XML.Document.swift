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
        /// - Throws: ``FormatError`` with code `.malformed` or `.truncated` (with line and column)
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
    private var prolog: [XML.Node] = []
    private var epilog: [XML.Node] = []
    private var stack: [XML.Element] = []
    private var root: XML.Element?

    var document: XML.Document? {
        root.map { XML.Document(root: $0, prolog: prolog, epilog: epilog) }
    }

    private func append(_ node: XML.Node) {
        if stack.isEmpty {
            if root == nil { prolog.append(node) } else { epilog.append(node) }
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    override func handleStartElement(_ name: XML.Name, attributes: [XML.Attribute], namespaces: [XML.Namespace]) {
        stack.append(XML.Element(name, attributes: attributes, namespaces: namespaces))
    }

    override func handleEndElement(_ name: XML.Name) {
        guard let element = stack.popLast() else { return }
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(.element(element))
        }
    }

    override func handleText(_ text: String) {
        // Outside the root only whitespace can occur; it is not kept.
        if !stack.isEmpty { append(.text(text)) }
    }

    override func handleCDATA(_ text: String) { append(.cdata(text)) }
    override func handleComment(_ text: String) { append(.comment(text)) }
    override func handleProcessingInstruction(target: String, data: String) {
        append(.processingInstruction(target: target, data: data))
    }
}
