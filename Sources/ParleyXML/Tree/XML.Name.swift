extension XML {
    /// A qualified name of an element or attribute, as written, with the namespace it is bound to.
    ///
    /// A name holds one reference to its three parts, so copying one (every event and attribute
    /// carries one) retains a single object; setting a part makes a new one. The parser shares
    /// one such object between all the nodes with the same name.
    public struct Name: Sendable, Hashable, CustomStringConvertible {
        /// The parts, never changed once made: setting a part replaces the whole.
        private final class Parts: Sendable {
            let prefix: String?
            let localName: String
            let namespaceURI: String?

            init(prefix: String?, localName: String, namespaceURI: String?) {
                self.prefix = prefix
                self.localName = localName
                self.namespaceURI = namespaceURI
            }
        }

        private var parts: Parts

        /// The prefix before the colon (`atom` in `atom:feed`), or `nil`.
        public var prefix: String? {
            get { parts.prefix }
            set { parts = Parts(prefix: newValue, localName: parts.localName, namespaceURI: parts.namespaceURI) }
        }

        /// The local part of the name (`feed` in `atom:feed`).
        public var localName: String {
            get { parts.localName }
            set { parts = Parts(prefix: parts.prefix, localName: newValue, namespaceURI: parts.namespaceURI) }
        }

        /// The namespace URI the name is bound to, or `nil` when it is in no namespace.
        public var namespaceURI: String? {
            get { parts.namespaceURI }
            set { parts = Parts(prefix: parts.prefix, localName: parts.localName, namespaceURI: newValue) }
        }

        /// Creates a name.
        ///
        /// - Parameters:
        ///   - localName: The local part.
        ///   - prefix: The prefix, or `nil`.
        ///   - namespaceURI: The namespace URI, or `nil`.
        public init(_ localName: String, prefix: String? = nil, namespaceURI: String? = nil) {
            parts = Parts(prefix: prefix, localName: localName, namespaceURI: namespaceURI)
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

        /// Whether both names have the same prefix, local name and namespace URI.
        public static func == (lhs: Name, rhs: Name) -> Bool {
            lhs.parts === rhs.parts
                || (lhs.localName == rhs.localName && lhs.prefix == rhs.prefix && lhs.namespaceURI == rhs.namespaceURI)
        }

        /// Hashes the prefix, local name and namespace URI.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(prefix)
            hasher.combine(localName)
            hasher.combine(namespaceURI)
        }
    }
}
