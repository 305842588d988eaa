import Parley

extension JSONTape {
    /// The value at `index` built whole, without the `null` members of its objects and, when
    /// `arrayElementsToo`, without the `null` elements of its arrays: what
    /// `JSONFormat/Options/removesNullValues` (and `removesNullArrayElements`) decode to.
    ///
    /// Only `null` itself goes: an object or array left empty by the removal stays. Nested
    /// containers are built on an explicit stack, so no depth the limits allow can exhaust the
    /// machine stack.
    func valueRemovingNulls(at index: Int, arrayElementsToo: Bool) -> Value {
        struct Frame {
            let isObject: Bool
            var members: [Value.Object.Member] = []
            var elements: [Value] = []
            /// The key of the member whose value is being built.
            var key = ""
            /// The next child's entry: its key entry in an object, the element in an array.
            var next: Int
            var remaining: Int

            mutating func add(_ value: Value) {
                if isObject {
                    members.append(Value.Object.Member(key: key, value: value))
                } else {
                    elements.append(value)
                }
            }
        }
        func open(_ container: Int) -> Frame {
            let count = Int(entries[container].length)
            var frame = Frame(isObject: entries[container].kind == .object, next: container &+ 1, remaining: count)
            if frame.isObject { frame.members.reserveCapacity(count) } else { frame.elements.reserveCapacity(count) }
            return frame
        }

        switch entries[index].kind {
        case .array, .object: break
        default: return scalar(at: index)
        }
        var stack: [Frame] = []
        var current = open(index)
        while true {
            if current.remaining == 0 {
                let finished: Value =
                    current.isObject ? .object(Value.Object(current.members)) : .array(current.elements)
                guard var parent = stack.popLast() else { return finished }
                parent.add(finished)
                current = parent
                continue
            }
            var child = current.next
            if current.isObject {
                current.key = string(at: child)
                child &+= 1
            }
            current.next = next(after: child)
            current.remaining &-= 1
            switch entries[child].kind {
            case .array, .object:
                stack.append(current)
                current = open(child)
            case .null:
                if !current.isObject && !arrayElementsToo { current.add(.null) }
            default:
                current.add(scalar(at: child))
            }
        }
    }
}
