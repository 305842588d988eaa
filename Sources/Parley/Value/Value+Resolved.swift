extension Value {
    /// This value with every object's members held, at every depth, rather than built on
    /// demand from the document it was decoded from (see ``Object/isDeferred``).
    ///
    /// The copy no longer keeps that document alive: use it to keep a small part of a large
    /// body, or before reading every member many times over. Arrays and objects with nothing
    /// built on demand inside are shared, not copied.
    public func resolved() -> Value {
        resolvedIfChanged() ?? self
    }

    /// ``resolved()``, or `nil` when nothing in this value is built on demand.
    func resolvedIfChanged() -> Value? {
        switch self {
        case .array(let elements): elements.replacingChanged { $0.resolvedIfChanged() }.map(Value.array)
        case .object(let object): object.resolvedIfChanged().map(Value.object)
        case .tagged(let tag, let inner): inner.resolvedIfChanged().map { .tagged(tag, $0) }
        default: nil
        }
    }
}

extension Value.Object {
    /// The same members, held rather than built on demand, at every depth (see
    /// ``Value/resolved()``).
    public func resolved() -> Value.Object {
        resolvedIfChanged() ?? self
    }

    /// ``resolved()``, or `nil` when this object and everything in it already hold their members.
    func resolvedIfChanged() -> Value.Object? {
        if isDeferred {
            var members: [Member] = []
            members.reserveCapacity(count)
            for member in self { members.append(Member(key: member.key, value: member.value.resolved())) }
            return Value.Object(members)
        }
        return members.replacingChanged { member in
            member.value.resolvedIfChanged().map { Member(key: member.key, value: $0) }
        }.map(Value.Object.init)
    }
}

extension Array {
    /// A copy with every element for which `changed` returns a replacement replaced, or `nil`
    /// when it returns none (the caller then keeps sharing this array).
    fileprivate func replacingChanged(_ changed: (Element) -> Element?) -> [Element]? {
        var copy: [Element]?
        for (position, element) in enumerated() {
            guard let replacement = changed(element) else { continue }
            if copy == nil { copy = self }
            copy![position] = replacement
        }
        return copy
    }
}
