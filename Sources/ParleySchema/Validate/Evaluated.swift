/// What in-place subschemas evaluated, for `unevaluatedProperties` and `unevaluatedItems`.
/// Empty sets do not allocate, so nodes without those keywords pay nothing.
struct Evaluated {
    var properties: Set<String> = []
    var allProperties = false
    /// Items `0..<itemsPrefix` were evaluated.
    var itemsPrefix = 0
    var allItems = false
    /// Items `contains` matched.
    var items: Set<Int> = []

    mutating func merge(_ other: Evaluated) {
        if other.allProperties {
            allProperties = true
        } else if !other.properties.isEmpty {
            properties.formUnion(other.properties)
        }
        itemsPrefix = max(itemsPrefix, other.itemsPrefix)
        if other.allItems { allItems = true }
        if !other.items.isEmpty { items.formUnion(other.items) }
    }
}

/// One step of a JSON Pointer: a member name or an array index.
enum PathToken {
    case key(String)
    case index(Int)

    var text: String {
        switch self {
        case .key(let key): JSONPointer.escape(key)
        case .index(let i): String(i)
        }
    }

    static func pointer(_ tokens: [PathToken]) -> String {
        var text = ""
        for token in tokens { text += "/" + token.text }
        return text
    }
}

/// A schema limit compared without rounding, with fast paths for integers and binary floats.
struct NumberLimit: Sendable {
    let exact: ExactNumber
    let double: Double
    let integer: Int64?

    init(_ exact: ExactNumber, double: Double) {
        self.exact = exact
        self.double = double
        if exact.isInteger && exact.digits.count + exact.exponent <= 18 {
            let text = String(decoding: exact.digits, as: UTF8.self) + String(repeating: "0", count: exact.exponent)
            self.integer = Int64(text).map { exact.negative ? -$0 : $0 } ?? (exact.isZero ? 0 : nil)
        } else {
            self.integer = nil
        }
    }
}
