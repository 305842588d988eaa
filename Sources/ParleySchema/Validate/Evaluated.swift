/// What in-place subschemas evaluated, for `unevaluatedProperties` and `unevaluatedItems`.
/// The sets are `nil` until something is put in them, so nodes without those keywords make and
/// free no set (an empty `Set` is still released when the value goes).
struct Evaluated {
    var properties: Set<String>?
    var allProperties = false
    /// Items `0..<itemsPrefix` were evaluated.
    var itemsPrefix = 0
    var allItems = false
    /// Items `contains` matched.
    var items: Set<Int>?

    mutating func insert(property name: String) {
        if properties == nil { properties = [name] } else { properties!.insert(name) }
    }

    mutating func insert(item position: Int) {
        if items == nil { items = [position] } else { items!.insert(position) }
    }

    mutating func merge(_ other: Evaluated) {
        if other.allProperties {
            allProperties = true
        } else if let names = other.properties {
            if properties == nil { properties = names } else { properties!.formUnion(names) }
        }
        itemsPrefix = max(itemsPrefix, other.itemsPrefix)
        if other.allItems { allItems = true }
        if let positions = other.items {
            if items == nil { items = positions } else { items!.formUnion(positions) }
        }
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
