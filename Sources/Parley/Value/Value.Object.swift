extension Value {
    /// The members of an object in their original order. Keys may repeat (JSON allows it);
    /// lookups by key return the last member with that key.
    ///
    /// An object decoded by a format that parses into a flat document first (JSON does) may
    /// build its members on demand: each access creates the member's value from the parsed
    /// document, and the object keeps that document alive (see ``isDeferred``). Such an object
    /// equals, hashes and behaves exactly like one holding the same members; mutating it
    /// builds the members first.
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

        /// Where the members are.
        enum Storage: Sendable {
            case built([Member])
            /// The object `object` of `document`, which builds its members on demand. The
            /// object is an index rather than an instance of its own, so a document's nested
            /// objects share it and cost no allocation each; 32 bits keep `Value` at 24 bytes.
            case deferred(any DeferredObjectDocument, object: UInt32)
        }

        private var storage: Storage

        /// Creates an object from members in order.
        public init(_ members: [Member] = []) {
            self.storage = .built(members)
        }

        /// Creates an object from key/value pairs in order.
        public init(dictionaryLiteral elements: (String, Value)...) {
            self.storage = .built(elements.map { Member(key: $0.0, value: $0.1) })
        }

        /// Creates the object `object` of `document`, whose members the document builds on demand.
        package init(deferred document: any DeferredObjectDocument, object: UInt32) {
            self.storage = .deferred(document, object: object)
        }

        /// The members in order.
        ///
        /// For an object that builds its members on demand (``isDeferred``), reading this
        /// builds all of them; iterate the object itself or look members up by key to build
        /// only what you use.
        public var members: [Member] {
            get {
                switch storage {
                case .built(let members): members
                case .deferred: Array(self)
                }
            }
            // Swift has no stable in-place accessor yet; `_modify` lets `object.members.append(…)`
            // mutate the array without copying it.
            _modify {
                var members = self.members
                storage = .built([])
                defer { storage = .built(members) }
                yield &members
            }
        }

        /// Whether the members are built on demand from a parsed document rather than held.
        ///
        /// Such an object keeps the whole document it came from alive (its text and index); to
        /// keep a small part of a large document without the rest, copy it with
        /// ``Value/resolved()``.
        public var isDeferred: Bool {
            if case .deferred = storage { return true }
            return false
        }

        /// The document and object number of an object that builds its members on demand.
        @usableFromInline
        package var deferredDocument: (any DeferredObjectDocument, UInt32)? {
            if case .deferred(let document, let object) = storage { return (document, object) }
            return nil
        }

        public var startIndex: Int { 0 }

        public var endIndex: Int {
            switch storage {
            case .built(let members): members.count
            case .deferred(let document, let object): document.memberCount(of: object)
            }
        }

        /// The member at `position`.
        /// - Complexity: O(1).
        public subscript(position: Int) -> Member {
            switch storage {
            case .built(let members): return members[position]
            case .deferred(let document, let object):
                precondition(
                    position >= 0 && position < document.memberCount(of: object), "Value.Object index out of range")
                var cursor = 0
                return document.member(at: position, of: object, cursor: &cursor)
            }
        }

        /// The keys in order.
        public var keys: [String] {
            var keys: [String] = []
            keys.reserveCapacity(count)
            for member in self { keys.append(member.key) }
            return keys
        }

        /// Iterates the members in order; for an object that builds its members on demand, each
        /// step continues from where the last one ended.
        public struct Iterator: IteratorProtocol {
            /// The storage, taken apart once rather than at every step.
            let members: [Member]
            let document: (any DeferredObjectDocument)?
            let object: UInt32
            let count: Int
            var position = 0
            var cursor = 0

            init(_ storage: Storage) {
                switch storage {
                case .built(let members):
                    self.members = members
                    self.document = nil
                    self.object = 0
                    self.count = members.count
                case .deferred(let document, let object):
                    self.members = []
                    self.document = document
                    self.object = object
                    self.count = document.memberCount(of: object)
                }
            }

            public mutating func next() -> Member? {
                guard position < count else { return nil }
                defer { position += 1 }
                guard document != nil else { return members[position] }
                var next = cursor
                let member = deferredStep(cursor: &next)
                cursor = next
                return member
            }

            /// The next member of a deferred object. Not `mutating`, so the document is borrowed
            /// from the iterator: called from `next()` directly, it was retained and released at
            /// every step.
            /// `cursor` is a local of `next()`'s, not the property (which, passed `inout`, made
            /// `next()` copy the document again).
            private func deferredStep(cursor: inout Int) -> Member {
                document!.member(at: position, of: object, cursor: &cursor)
            }
        }

        public func makeIterator() -> Iterator { Iterator(storage) }

        /// The value of the last member named `key`, or `nil`.
        ///
        /// Setting replaces the value of the last member with that key, or appends a member;
        /// setting `nil` removes every member with that key.
        /// - Complexity: O(*n*).
        public subscript(key: String) -> Value? {
            get {
                switch storage {
                case .built(let members):
                    var i = members.endIndex
                    while i > members.startIndex {
                        i -= 1
                        if members[i].key == key { return members[i].value }
                    }
                    return nil
                case .deferred(let document, let object):
                    return document.lastValue(forKey: key, of: object)
                }
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

        /// Whether a member is named `key`, found without building any member's value (for an
        /// object that builds its members on demand, the subscript builds the value it returns).
        /// - Complexity: O(*n*).
        public func contains(key: String) -> Bool {
            switch storage {
            case .built(let members): members.contains { $0.key == key }
            case .deferred(let document, let object): document.containsMember(named: key, of: object)
            }
        }

        /// Appends a member, keeping any earlier member with the same key.
        public mutating func append(key: String, value: Value) {
            members.append(Member(key: key, value: value))
        }

        public static func == (lhs: Object, rhs: Object) -> Bool {
            if case .built(let l) = lhs.storage, case .built(let r) = rhs.storage { return l == r }
            return lhs.elementsEqual(rhs)
        }

        public func hash(into hasher: inout Hasher) {
            // The same combination `[Member]` hashes with, whatever the storage.
            hasher.combine(count)
            for member in self { hasher.combine(member) }
        }
    }
}

/// A document that a format has already parsed and validated, whose objects build their
/// members on demand instead of all while decoding. Each object is known by a number the
/// document gives it (``Value/Object/init(deferred:object:)``).
///
/// Implementations are immutable and safe to share across threads: every call builds its
/// result afresh from the document.
@usableFromInline
package protocol DeferredObjectDocument: AnyObject, Sendable {
    /// The number of members of `object`.
    func memberCount(of object: UInt32) -> Int
    /// The member at `position` (`0..<memberCount(of: object)`) of `object`, built from the document.
    ///
    /// `cursor` is 0 for a lookup by position (O(1) or close to it) and for the first step of a
    /// walk in order; each later step of a walk passes what the previous step (for the previous
    /// position) left in it, so the walk continues where it was.
    func member(at position: Int, of object: UInt32, cursor: inout Int) -> Value.Object.Member
    /// The value of the last member of `object` named `key`, or `nil`.
    func lastValue(forKey key: String, of object: UInt32) -> Value?
    /// Whether `object` has a member named `key`, without building its value.
    func containsMember(named key: String, of object: UInt32) -> Bool
    /// The document's entries laid out flat, for encoders that write an object straight from them
    /// (``Value/Object/writeDeferredEvents(to:)``), or `nil` when it has none (the encoder then
    /// builds the members).
    var valueTape: ValueTape? { get }
}

extension DeferredObjectDocument {
    /// A document that cannot tell without building the value asks for it.
    package func containsMember(named key: String, of object: UInt32) -> Bool {
        lastValue(forKey: key, of: object) != nil
    }
}

extension Value.Object: CustomReflectable {
    /// The members, however they are stored, so `print`, `dump` and test failures show them.
    public var customMirror: Mirror {
        Mirror(self, children: ["members": members], displayStyle: .struct)
    }
}
