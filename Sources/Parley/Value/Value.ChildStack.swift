extension Value {
    /// The finished children of every open container while a format builds a ``Value`` tree
    /// from a stream of events, as the XML, YAML and MessagePack readers do: each child is
    /// appended as it finishes, and a closing container takes its own run, from where it
    /// started, in an array of exactly its size.
    ///
    /// One stack serves all open containers (keep one for members and one for elements), so no
    /// container's array grows by reallocation, and a run moves out without a copy: no child is
    /// retained and released on the way.
    ///
    /// ```swift
    /// var members = Value.ChildStack<Value.Object.Member>()
    /// let start = members.count  // a mapping opens
    /// members.append(Value.Object.Member(key: "id", value: .integer(1)))
    /// let object = Value.Object(members.removeTail(from: start))  // and closes
    /// ```
    ///
    /// Its methods are `@inlinable`, so each reader gets them specialised for its child type
    /// (kept, see Benchmarks/Gate/kept-shortcuts.md).
    @frozen
    public struct ChildStack<Child> {
        @usableFromInline
        var storage: [Child]

        /// The children of the open containers, outermost first, for reading.
        public var children: [Child] {
            @inlinable _read { yield storage }
        }

        /// Creates an empty stack.
        @inlinable
        public init() {
            storage = []
        }

        /// The number of children on the stack: where a container opened now starts.
        @inlinable
        public var count: Int { storage.count }

        /// The child at `position` (`0..<count`).
        @inlinable
        public subscript(position: Int) -> Child {
            get { storage[position] }
            _modify { yield &storage[position] }
        }

        /// Pushes a finished child.
        @inlinable
        public mutating func append(_ child: consuming Child) {
            storage.append(child)
        }

        /// Removes the children from `start` on and returns them in order, in an array of
        /// exactly their count.
        ///
        /// They move rather than copy: they leave last first into the result, which then swaps
        /// them back into order through its span. Copying the run out and removing it would
        /// retain every child once and release it again (and `reverse()` copies too).
        @inlinable
        public mutating func removeTail(from start: Int) -> [Child] {
            var tail: [Child] = []
            tail.reserveCapacity(storage.count - start)
            while storage.count > start { tail.append(storage.removeLast()) }
            var span = tail.mutableSpan
            var low = 0
            var high = span.count - 1
            while low < high {
                span.swapAt(low, high)
                low += 1
                high -= 1
            }
            return tail
        }
    }
}

extension Value.ChildStack: Sendable where Child: Sendable {}
