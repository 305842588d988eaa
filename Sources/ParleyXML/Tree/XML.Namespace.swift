extension XML {
    /// A namespace declaration on an element: `xmlns="uri"` or `xmlns:prefix="uri"`.
    public struct Namespace: Sendable, Hashable {
        /// The declared prefix, or `nil` for the default namespace.
        public var prefix: String?
        /// The namespace URI; empty when the declaration undeclares the default namespace.
        public var uri: String

        /// Creates a namespace declaration.
        ///
        /// - Parameters:
        ///   - prefix: The prefix, or `nil` for the default namespace.
        ///   - uri: The namespace URI.
        public init(prefix: String? = nil, uri: String) {
            self.prefix = prefix
            self.uri = uri
        }

        /// The attribute name that declares it: `xmlns` or `xmlns:prefix`.
        public var attributeName: String {
            if let prefix { return "xmlns:" + prefix }
            return "xmlns"
        }
    }
}
