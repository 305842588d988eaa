import Parley

/// How a map's keys become an object's: text keys stay, integer keys (bignums included) become
/// their decimal text, and a map with any other key, or whose converted keys would collide
/// with its text keys, is kept whole as `Value.tagged("cbor.map", [[key, value], …])`.
enum CBORMapKeys {
    /// The value of a map whose keys and values alternate in `items`.
    static func value(ofMapItems items: [Value], keepsNonTextKeys: Bool) -> Value {
        var members: [Value.Object.Member] = []
        members.reserveCapacity(items.count / 2)
        var converted = false
        var i = items.startIndex
        while i < items.endIndex {
            let key: String
            switch items[i] {
            case .string(let text): key = text
            case .integer(let integer) where !keepsNonTextKeys: key = String(integer); converted = true
            case .number(let text) where !keepsNonTextKeys && isIntegerText(text): key = text; converted = true
            default: return kept(items)
            }
            members.append(Value.Object.Member(key: key, value: items[i + 1]))
            i += 2
        }
        if converted && collides(items) { return kept(items) }
        return .object(Value.Object(members))
    }

    /// Whether a converted integer key has the same text as one of the text keys.
    private static func collides(_ items: [Value]) -> Bool {
        var texts = Set<String>()
        for index in stride(from: items.startIndex, to: items.endIndex, by: 2) {
            if case .string(let text) = items[index] { texts.insert(text) }
        }
        for index in stride(from: items.startIndex, to: items.endIndex, by: 2) {
            switch items[index] {
            case .integer(let integer) where texts.contains(String(integer)): return true
            case .number(let text) where texts.contains(text): return true
            default: continue
            }
        }
        return false
    }

    private static func kept(_ items: [Value]) -> Value {
        let pairs = stride(from: items.startIndex, to: items.endIndex, by: 2).map {
            Value.array([items[$0], items[$0 + 1]])
        }
        return .tagged(CBORFormat.mapTag, .array(pairs))
    }

    private static func isIntegerText(_ text: String) -> Bool {
        !text.contains { $0 == "." || $0 == "e" || $0 == "E" }
    }
}
