import Parley

/// Builds an ``XML/Document`` from SAX events: the root element's content goes into a
/// ``ParsedTree`` (records and bytes, no object per node), the comments and processing
/// instructions around the root into nodes.
final class TreeBuilder: SAXHandler {
    private var prolog: [XML.Node] = []
    private var epilog: [XML.Node] = []
    /// Behind a pointer so writing pays no dynamic exclusivity check.
    private let tree: UnsafeMutablePointer<ParsedTree.Builder>

    /// Creates a builder for a body of `inputBytes` bytes, its buffers sized to fit it.
    init(limits: DecodingLimits, inputBytes: Int) {
        tree = .allocate(capacity: 1)
        tree.initialize(to: ParsedTree.Builder(reservingFor: inputBytes))
        super.init(limits: limits, takesTextAtElements: true)
        state.pointee.nameTable = []
    }

    deinit {
        tree.deinitialize(count: 1)
        tree.deallocate()
    }

    /// The document, once the parse has succeeded; call it once.
    func document() -> XML.Document? {
        guard tree.pointee.hasRoot else { return nil }
        let parsed = tree.move().finish(names: state.pointee.nameTable ?? [])
        tree.initialize(to: ParsedTree.Builder())
        return XML.Document(root: XML.Element(tree: parsed, index: 0), prolog: prolog, epilog: epilog)
    }

    override func emit(_ event: borrowing XML.EventView) {
        switch event.kind {
        case .startElement:
            addPendingText()
            tree.pointee.openElement(name: event.nameOrdinal)
            event.attributes.forEach { attribute in
                let name = attribute.nameOrdinal
                attribute.withValueBytes { tree.pointee.addAttribute(name: name, value: $0) }
            }
            for index in 0..<event.namespaces.count { tree.pointee.addNamespace(event.namespaces[index]) }
        case .endElement:
            addPendingText()
            tree.pointee.closeElement()
        case .text:
            // Outside the root only whitespace can occur; it is not kept.
            if tree.pointee.isInsideRoot { event.withUTF8 { tree.pointee.addLeaf(.text, $0) } }
        case .cdata:
            event.withUTF8 { tree.pointee.addLeaf(.cdata, $0) }
        case .comment:
            if tree.pointee.isInsideRoot {
                event.withUTF8 { tree.pointee.addLeaf(.comment, $0) }
            } else {
                addOutsideRoot(.comment(event.text))
            }
        case .processingInstruction:
            if tree.pointee.isInsideRoot {
                var target = event.target
                target.withUTF8 { target in
                    event.withUTF8 { tree.pointee.addProcessingInstruction(target: target, data: $0) }
                }
            } else {
                addOutsideRoot(.processingInstruction(target: event.target, data: event.text))
            }
        }
    }

    /// Adds the text that ends at a tag (the handler's pending text, which comes with no text
    /// event: `takesTextAtElements`) to the innermost open element.
    private func addPendingText() {
        let text = Self.takePendingText(state)
        // Outside the root only whitespace can occur; it is not kept.
        if text.count > 0 && tree.pointee.isInsideRoot { tree.pointee.addLeaf(.text, text) }
    }

    private func addOutsideRoot(_ node: XML.Node) {
        if tree.pointee.hasRoot { epilog.append(node) } else { prolog.append(node) }
    }
}
