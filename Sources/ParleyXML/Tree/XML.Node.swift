extension XML {
    /// A node of a document: an element or one of the leaves between elements.
    public enum Node: Sendable, Hashable {
        /// An element with its attributes and children.
        case element(Element)
        /// Character data, with character and entity references resolved.
        case text(String)
        /// The content of a `<![CDATA[…]]>` section.
        case cdata(String)
        /// The content of a `<!--…-->` comment.
        case comment(String)
        /// A processing instruction `<?target data?>`.
        case processingInstruction(target: String, data: String)

        /// The element, if this node is one.
        public var element: Element? {
            if case .element(let element) = self { return element }
            return nil
        }

        /// The node's text: an element's ``XML/Element/textContent``, the characters of text and
        /// CDATA, a comment's content, a processing instruction's data.
        public var textContent: String {
            switch self {
            case .element(let element): element.textContent
            case .text(let text), .cdata(let text), .comment(let text): text
            case .processingInstruction(_, let data): data
            }
        }
    }
}
