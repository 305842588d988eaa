/// A value under construction by `ValueEncoderImplementation`: containers are boxes so a
/// container handed to `encode(to:)` can keep filling them after it returns.
enum EncodedNode {
    case value(Value)
    case array(EncodedArray)
    case object(EncodedObject)
    /// A super-encoder's result, read when the tree is finished.
    case deferred(ValueEncoderImplementation)

    /// The finished value tree.
    func finished() -> Value {
        switch self {
        case .value(let value): return value
        case .array(let array): return .array(array.elements.map { $0.finished() })
        case .object(let object): return .object(object.finished())
        case .deferred(let encoder): return encoder.node?.finished() ?? .object(Value.Object())
        }
    }
}

/// An array being encoded.
final class EncodedArray {
    var elements: [EncodedNode] = []
}

/// An object being encoded: members in order; a repeated key replaces its value in place.
final class EncodedObject {
    var keys: [String] = []
    var values: [EncodedNode] = []

    func set(_ key: String, _ node: EncodedNode) {
        keys.append(key)
        values.append(node)
    }

    /// The node last stored under `key`.
    func node(forKey key: String) -> EncodedNode? {
        keys.lastIndex(of: key).map { values[$0] }
    }

    func finished() -> Value.Object {
        var members: [Value.Object.Member] = []
        members.reserveCapacity(keys.count)
        if hasRepeatedKeys() {
            var positions: [String: Int] = [:]
            for (key, node) in zip(keys, values) {
                if let position = positions[key] {
                    members[position].value = node.finished()
                } else {
                    positions[key] = members.count
                    members.append(Value.Object.Member(key: key, value: node.finished()))
                }
            }
        } else {
            for (key, node) in zip(keys, values) {
                members.append(Value.Object.Member(key: key, value: node.finished()))
            }
        }
        return Value.Object(members)
    }

    private func hasRepeatedKeys() -> Bool {
        if keys.count < 2 { return false }
        if keys.count <= 16 {
            for i in 1..<keys.count where keys[..<i].contains(keys[i]) { return true }
            return false
        }
        return Set(keys).count != keys.count
    }
}
