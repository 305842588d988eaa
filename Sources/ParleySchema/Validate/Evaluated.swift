/// What in-place subschemas evaluated, for `unevaluatedProperties` and `unevaluatedItems`.
struct Evaluated {
    /// The member names and item positions put in, made with the first one (so that the many
    /// nodes without those keywords make and free no set) and shared by copies until one writes.
    private var sets: Sets?
    var allProperties = false
    /// Items `0..<itemsPrefix` were evaluated.
    var itemsPrefix = 0
    var allItems = false

    private final class Sets {
        var properties: Set<String> = []
        var items: Set<Int> = []

        init() {}

        init(_ other: Sets) {
            properties = other.properties
            items = other.items
        }
    }

    /// The member names evaluated.
    var properties: Set<String> { sets?.properties ?? [] }
    /// The items `contains` matched.
    var items: Set<Int> { sets?.items ?? [] }

    mutating func insert(property name: String) {
        writableSets().properties.insert(name)
    }

    mutating func insert(item position: Int) {
        writableSets().items.insert(position)
    }

    mutating func merge(_ other: Evaluated) {
        if other.allProperties {
            allProperties = true
        } else if let names = other.sets?.properties, !names.isEmpty {
            writableSets().properties.formUnion(names)
        }
        itemsPrefix = max(itemsPrefix, other.itemsPrefix)
        if other.allItems { allItems = true }
        if let positions = other.sets?.items, !positions.isEmpty { writableSets().items.formUnion(positions) }
    }

    private mutating func writableSets() -> Sets {
        if sets == nil {
            sets = Sets()
        } else if !isKnownUniquelyReferenced(&sets!) {
            sets = Sets(sets!)
        }
        return sets!
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
