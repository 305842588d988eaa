extension Value {
    /// The members of an object in their original order. Keys may repeat (JSON allows it);
    /// lookups by key return the last member with that key.
    public struct Object: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
        /// One key/value pair of an object.
        public struct Member: Sendable, Hashable {
            /// The member's key.
            public var key: String
            /// The member's value.
            public var value: Value

            /// Creates a member.
            public init(key: String, value: Value) {
                self.key = key
                self.value = value
            }
        }

        /// The members in order.
        public var members: [Member]

        /// Creates an object from members in order.
        public init(_ members: [Member] = []) {
            self.members = members
        }

        /// Creates an object from key/value pairs in order.
        public init(dictionaryLiteral elements: (String, Value)...) {
            self.members = elements.map { Member(key: $0.0, value: $0.1) }
        }

        public var startIndex: Int { members.startIndex }
        public var endIndex: Int { members.endIndex }
        public subscript(position: Int) -> Member { members[position] }

        /// The keys in order.
        public var keys: [String] { members.map(\.key) }

        /// The value of the last member named `key`, or `nil`.
        ///
        /// Setting replaces the value of the last member with that key, or appends a member;
        /// setting `nil` removes every member with that key.
        /// - Complexity: O(*n*).
        public subscript(key: String) -> Value? {
            get {
                var i = members.endIndex
                while i > members.startIndex {
                    i -= 1
                    if members[i].key == key { return members[i].value }
                }
                return nil
            }
            set {
                guard let newValue else {
                    members.removeAll { $0.key == key }
                    return
                }
                if let i = members.lastIndex(where: { $0.key == key }) {
                    members[i].value = newValue
                } else {
                    members.append(Member(key: key, value: newValue))
                }
            }
        }

        /// Appends a member, keeping any earlier member with the same key.
        public mutating func append(key: String, value: Value) {
            members.append(Member(key: key, value: value))
        }
    }
}
