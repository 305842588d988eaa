extension XML {
    /// A qualified name of an element or attribute, as written, with the namespace it is bound to.
    public struct Name: Sendable, Hashable, CustomStringConvertible {
        /// The prefix before the colon (`atom` in `atom:feed`), or `nil`.
        public var prefix: String?
        /// The local part of the name (`feed` in `atom:feed`).
        public var localName: String
        /// The namespace URI the name is bound to, or `nil` when it is in no namespace.
        public var namespaceURI: String?

        /// Creates a name.
        ///
        /// - Parameters:
        ///   - localName: The local part.
        ///   - prefix: The prefix, or `nil`.
        ///   - namespaceURI: The namespace URI, or `nil`.
        public init(_ localName: String, prefix: String? = nil, namespaceURI: String? = nil) {
            self.localName = localName
            self.prefix = prefix
            self.namespaceURI = namespaceURI
        }

        /// The name as written: `prefix:localName`, or `localName` without a prefix.
        public var qualifiedName: String {
            if let prefix { return prefix + ":" + localName }
            return localName
        }

        /// The name in Clark notation, `{namespaceURI}localName`, or `localName` in no namespace.
        public var expandedName: String {
            if let namespaceURI { return "{" + namespaceURI + "}" + localName }
            return localName
        }

        /// The qualified name.
        public var description: String { qualifiedName }
    }
}
