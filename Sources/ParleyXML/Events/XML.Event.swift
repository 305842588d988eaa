extension XML {
    /// One event of a streaming parse, in document order.
    ///
    /// Character data between two pieces of markup arrives as one ``text(_:)`` event, with
    /// references resolved and line ends normalised; whitespace between elements is reported too.
    public enum Event: Sendable, Hashable {
        /// A start tag (or the start of an empty-element tag).
        case startElement(Name, attributes: [Attribute], namespaces: [Namespace])
        /// An end tag (or the end of an empty-element tag).
        case endElement(Name)
        /// Character data.
        case text(String)
        /// The content of a CDATA section.
        case cdata(String)
        /// A comment's content.
        case comment(String)
        /// A processing instruction.
        case processingInstruction(target: String, data: String)
    }
}
