extension XML {
    /// An attribute of an element, its value normalised and its references resolved.
    public struct Attribute: Sendable, Hashable {
        /// The attribute's name.
        public var name: Name
        /// The attribute's value.
        public var value: String

        /// Creates an attribute.
        ///
        /// - Parameters:
        ///   - name: The attribute's name.
        ///   - value: The value, unescaped.
        public init(_ name: Name, value: String) {
            self.name = name
            self.value = value
        }

        /// Creates an attribute in no namespace.
        ///
        /// - Parameters:
        ///   - localName: The attribute's name.
        ///   - value: The value, unescaped.
        public init(_ localName: String, value: String) {
            self.init(Name(localName), value: value)
        }
    }
}
