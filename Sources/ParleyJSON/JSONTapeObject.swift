import Parley

/// The members of one object of a parsed JSON tape, built into values only when asked for: what
/// makes ``JSONFormat/decode(_:context:)`` cost a validating pass instead of a whole tree.
///
/// Immutable; it shares the tape, so it can be read from any thread.
final class JSONTapeObject: DeferredObjectMembers {
    let tape: JSONTape
    /// The object's entry.
    let object: Int
    /// The key entry of each member, for objects over ``walkLimit`` members; smaller objects
    /// walk from their first member instead.
    let keyEntries: [UInt32]

    /// The member count up to which finding a member by position walks the tape.
    static var walkLimit: Int { 16 }

    init(tape: JSONTape, object: Int) {
        self.tape = tape
        self.object = object
        if Int(tape.entries[object].length) > Self.walkLimit {
            var keys: [UInt32] = []
            keys.reserveCapacity(Int(tape.entries[object].length))
            tape.forEachMember(of: object) { key, _ in keys.append(UInt32(truncatingIfNeeded: key)) }
            self.keyEntries = keys
        } else {
            self.keyEntries = []
        }
    }

    var count: Int { Int(tape.entries[object].length) }

    func member(at position: Int, cursor: inout Int) -> Value.Object.Member {
        let key = cursor == 0 ? keyEntry(at: position) : cursor
        let value = key &+ 1
        cursor = tape.next(after: value)
        return Value.Object.Member(key: tape.string(at: key), value: tape.value(at: value))
    }

    func lastValue(forKey key: String) -> Value? {
        tape.lastMember(of: object, named: key).map(tape.value(at:))
    }

    private func keyEntry(at position: Int) -> Int {
        if !keyEntries.isEmpty { return Int(keyEntries[position]) }
        var key = object &+ 1
        for _ in 0..<position { key = tape.next(after: key &+ 1) }
        return key
    }
}

extension JSONTape {
    /// The value of the entry at `index`: scalars exactly, arrays with all their elements,
    /// objects as ``JSONTapeObject``s that build their members when asked.
    func value(at index: Int) -> Value {
        switch entries[index].kind {
        case .array: array(at: index)
        case .object: deferredObject(at: index)
        default: scalar(at: index)
        }
    }

    /// The object at `index`, building its members only when asked.
    private func deferredObject(at index: Int) -> Value {
        .object(Value.Object(deferred: JSONTapeObject(tape: self, object: index)))
    }

    /// The array at `index` when each of its elements takes one entry (scalars and empty
    /// containers: a coordinate pair, a list of tags), built without a stack; `nil` otherwise.
    private func flatArray(at index: Int) -> Value? {
        let count = Int(entries[index].length)
        guard Int(truncatingIfNeeded: entries[index].payload) == index &+ 1 &+ count else { return nil }
        var elements: [Value] = []
        elements.reserveCapacity(count)
        for element in index &+ 1 ..< index &+ 1 &+ count {
            // An empty array is a scalar here; an empty object is deferred, as elsewhere.
            elements.append(entries[element].kind == .object ? deferredObject(at: element) : scalar(at: element))
        }
        return .array(elements)
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
