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
    /// internal entities are expanded into the text and attribute values. A parsed document's
    /// elements are views of flat records made in the same pass (``XML/Element/isParsed``): their
    /// children and attributes are made when read.
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
        ///   - limits: The limits to apply: `maxBodyBytes`, `maxDepth`, `maxNodes` (every node, attributes
        ///     and texts included) and `maxExpansionRatio`.
        /// - Throws: `FormatError` with code `.malformed` or `.truncated` (with line and column)
        ///   for a document that is not well-formed, `.limitExceeded` when a limit is reached.
        public init<Bytes: Sequence<UInt8>>(parsing bytes: Bytes, limits: DecodingLimits = .standard) throws {
            self = try withContiguousBytes(of: bytes) { buffer in
                let builder = TreeBuilder(limits: limits, inputBytes: buffer.count)
                let parser = try SAXParser(bytes: buffer, handler: builder)
                try parser.parse()
                guard let document = builder.document() else {
                    throw FormatError(.malformed, format: "xml", "no root element")
                }
                return document
            }
        }
    }
}
