// Public: the tape is `@usableFromInline` (for its inlinable accessors), so its conformance is too.
public import Parley

/// A tape's objects build their members into values only when asked for: what makes
/// ``JSONFormat/decode(_:context:)`` cost a validating pass instead of a whole tree. An object is
/// known by the index of its entry.
extension JSONTape: DeferredObjectDocument {
    /// The member count up to which finding a member by position walks the tape; larger objects
    /// have their key entries listed in ``largeObjectKeys``.
    static var walkLimit: Int { 16 }

    @usableFromInline
    package func memberCount(of object: UInt32) -> Int { Int(entries[Int(object)].length) }

    @usableFromInline
    package func member(at position: Int, of object: UInt32, cursor: inout Int) -> Value.Object.Member {
        let key = cursor == 0 ? keyEntry(at: position, of: Int(object)) : cursor
        let value = key &+ 1
        cursor = next(after: value)
        return Value.Object.Member(key: string(at: key), value: self.value(at: value))
    }

    @usableFromInline
    package func lastValue(forKey key: String, of object: UInt32) -> Value? {
        lastMember(of: Int(object), named: key).map(value(at:))
    }

    @usableFromInline
    package func containsMember(named key: String, of object: UInt32) -> Bool {
        var key = key
        return key.withUTF8 { name in
            // Any member will do, so the scan stops at the first (a lookup must find the last).
            var entry = Int(object) &+ 1
            for _ in 0..<memberCount(of: object) {
                if self.key(at: entry, equals: name) { return true }
                entry = next(after: entry &+ 1)
            }
            return false
        }
    }

    /// The key entry of the member at `position` of `object`.
    private func keyEntry(at position: Int, of object: Int) -> Int {
        if let first = largeObjectKeys.firstKey[UInt32(truncatingIfNeeded: object)] {
            return Int(largeObjectKeys.keys[first &+ position])
        }
        var key = object &+ 1
        for _ in 0..<position { key = next(after: key &+ 1) }
        return key
    }
}

extension JSONTape {
    /// The value of the entry at `index`: scalars exactly, arrays with all their elements,
    /// objects that build their members when asked.
    package func value(at index: Int) -> Value {
        switch entries[index].kind {
        case .array: array(at: index)
        case .object: deferredObject(at: index)
        default: scalar(at: index)
        }
    }

    /// The object at `index`, building its members only when asked.
    private func deferredObject(at index: Int) -> Value {
        .object(Value.Object(deferred: self, object: UInt32(truncatingIfNeeded: index)))
    }

    /// The array at `index` when each of its elements takes one entry (scalars and empty
    /// containers: a coordinate pair, a list of tags), built without a stack; `nil` otherwise.
    private func flatArray(at index: Int) -> Value? {
        let count = Int(entries[index].length)
        guard Int(truncatingIfNeeded: entries[index].payload) == index &+ 1 &+ count else { return nil }
        // An array element here is an empty one; an empty object is deferred, as elsewhere.
        func element(_ entry: Int) -> Value {
            entries[entry].kind == .array ? .array([]) : value(at: entry)
        }
        let first = index &+ 1
        // Up to two elements (a coordinate pair, a one-tag list) are an array literal, allocated
        // at its size at once, which costs less than reserving and appending.
        switch count {
        case 0: return .array([])
        case 1: return .array([element(first)])
        case 2: return .array([element(first), element(first &+ 1)])
        default:
            var elements: [Value] = []
            elements.reserveCapacity(count)
            for entry in first ..< first &+ count { elements.append(element(entry)) }
            return .array(elements)
        }
    }

    /// The array at `index`. Arrays nested in it are built on an explicit stack, so no depth
    /// the limits allow can exhaust the machine stack.
    private func array(at index: Int) -> Value {
        struct Frame {
            var elements: [Value]
            var next: Int
            var remaining: Int
        }
        func frame(_ array: Int) -> Frame {
            let count = Int(entries[array].length)
            var elements: [Value] = []
            elements.reserveCapacity(count)
            return Frame(elements: elements, next: array &+ 1, remaining: count)
        }
        if let flat = flatArray(at: index) { return flat }
        var stack: [Frame] = []
        var current = frame(index)
        while true {
            if current.remaining == 0 {
                let finished = Value.array(current.elements)
                guard var parent = stack.popLast() else { return finished }
                parent.elements.append(finished)
                current = parent
                continue
            }
            let element = current.next
            current.next = next(after: element)
            current.remaining &-= 1
            switch entries[element].kind {
            case .array:
                if let flat = flatArray(at: element) {
                    current.elements.append(flat)
                } else {
                    stack.append(current)
                    current = frame(element)
                }
            case .object:
                current.elements.append(deferredObject(at: element))
            default:
                current.elements.append(scalar(at: element))
            }
        }
    }
}
