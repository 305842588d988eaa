package import Parley

/// A compiled schema: every subschema reached from the root is a ``Node`` in one array, and
/// references are indices into it, so recursion costs nothing at validation time.
final class Program: Sendable {
    /// The subschemas; `root` is the schema that was compiled.
    let nodes: [Node]
    /// Every node's keywords as the validator runs them, node after node.
    let steps: [Step]
    /// What the validator reads of each node on entering it, by node.
    let heads: [NodeHead]
    /// The limits of the number keywords run as ``Step/bound(_:)``, by the step's index.
    let bounds: [NumberBound]
    /// The `pattern`s run as ``Step/wholePattern(_:)``, by the step's index: where their units
    /// are in ``patternWords`` and the keyword's position in its node.
    let wholePatterns: [(start: Int, count: Int, position: Int)]
    /// The units of those patterns, one pattern's after another, each as the four words of its
    /// byte set (bytes 0-63, 64-127, then two empty words for bytes outside ASCII), so a byte
    /// finds its word by its top two bits without a branch.
    let patternWords: [UInt64]
    /// The object applicators run as ``Step/object(_:)``, by the step's index.
    let applicators: [ObjectApplicator]
    /// The root node.
    let root: Int
    /// The `$dynamicAnchor`s of each schema resource, by name, to their nodes.
    let dynamicAnchors: [[String: Int]]
    /// Whether any `$dynamicRef` may look at the dynamic scope (so validation tracks it).
    let usesDynamicScope: Bool

    init(nodes: [Node], root: Int, dynamicAnchors: [[String: Int]], usesDynamicScope: Bool) {
        var steps: [Step] = []
        var heads: [NodeHead] = []
        var bounds: [NumberBound] = []
        var wholePatterns: [(start: Int, count: Int, position: Int)] = []
        var patternWords: [UInt64] = []
        var applicators: [ObjectApplicator] = []
        heads.reserveCapacity(nodes.count)
        for node in nodes {
            let start = steps.count
            // A leading `type` (not draft 4's, which tells `1.0` from an integer) is checked by
            // the node's own pass instead of as a step.
            var checksType = false
            if case .type(_, strictIntegers: false)? = node.keywords.first { checksType = true }
            for (position, keyword) in node.keywords.enumerated() where position > 0 || !checksType {
                if case .pattern(let pattern, _) = keyword, let units = pattern.wholeASCIIUnits {
                    steps.append(.wholePattern(wholePatterns.count))
                    wholePatterns.append((patternWords.count / 4, units.count, position))
                    for unit in units { patternWords += [unit.low, unit.high, 0, 0] }
                } else if case .object(let applicator) = keyword {
                    steps.append(.object(applicators.count))
                    applicators.append(applicator)
                } else if case .maximum(let limit, let exclusive, _) = keyword {
                    steps.append(.bound(bounds.count))
                    bounds.append(NumberBound(limit, exclusive: exclusive, isMaximum: true, position: position))
                } else if case .minimum(let limit, let exclusive, _) = keyword {
                    steps.append(.bound(bounds.count))
                    bounds.append(NumberBound(limit, exclusive: exclusive, isMaximum: false, position: position))
                } else {
                    steps.append(Step(keyword, at: position))
                }
            }
            var soleReference = -1
            if node.keywords.count == 1, !node.collectsEvaluated, case .ref(let target, _) = node.keywords[0] {
                soleReference = target
            }
            heads.append(NodeHead(
                start: Int32(start), end: Int32(steps.count), soleReference: Int32(soleReference), types: node.types,
                checksType: checksType, collectsEvaluated: node.collectsEvaluated))
        }
        self.nodes = nodes
        self.steps = steps
        self.heads = heads
        self.bounds = bounds
        self.wholePatterns = wholePatterns
        self.patternWords = patternWords
        self.applicators = applicators
        self.root = root
        self.dynamicAnchors = dynamicAnchors
        self.usesDynamicScope = usesDynamicScope
    }
}

/// One compiled subschema.
struct Node: Sendable {
    /// The keywords to check, in order; `unevaluated*` come last.
    var keywords: [Keyword] = []
    /// The schema resource (for the dynamic scope).
    var resource: Int = 0
    /// Where the subschema is: its resource's URI and a JSON Pointer fragment.
    var location: String = ""
    /// Whether the node has `unevaluatedProperties` or `unevaluatedItems`, so it collects what
    /// its in-place subschemas evaluated.
    var collectsEvaluated = false
    /// The types its `type` keyword allows, for coercing text scalars (empty: no `type`).
    var types: TypeSet = []
}

/// What the validator reads of a node on entering it, in one trivially copyable value (one array
/// read instead of one per field of ``Node``, whose keywords and location it does not need).
struct NodeHead: Sendable {
    /// Where its steps are in ``Program/steps``.
    let start: Int32
    let end: Int32
    /// The target of its `$ref` when that is its only keyword (as in `items: {$ref: …}`) and it
    /// collects nothing; -1 otherwise.
    let soleReference: Int32
    /// ``Node/types``.
    let types: TypeSet
    /// Whether its first keyword is a `type` the node checks itself (against ``types``), before
    /// its steps, which then do not include it.
    let checksType: Bool
    /// ``Node/collectsEvaluated``.
    let collectsEvaluated: Bool

    /// Whether the node checks nothing.
    var isEmpty: Bool { start == end && !checksType }
}

/// A keyword as the validator runs it. The common keywords whose operands are plain values are
/// held here, so reading one copies (retains) nothing; any other is its position in the node's
/// ``Node/keywords``, read from there (kept, see Benchmarks/Gate/kept-shortcuts.md).
enum Step: Sendable {
    case type(TypeSet, strictIntegers: Bool)
    case maxLength(Int)
    case minLength(Int)
    case maxItems(Int)
    case minItems(Int)
    case maxProperties(Int)
    case minProperties(Int)
    /// `$ref`, or a `$dynamicRef` that resolves statically.
    case ref(Int, dynamic: Bool)
    /// `items` after a prefix, or draft 4's `additionalItems`.
    case items(Int, from: Int, additional: Bool)
    case readOnly
    case writeOnly
    /// `minimum`, `maximum` or an exclusive one (``Program/bounds``' entry), decided here for a
    /// number ``NumberBound`` can order; any other instance goes to the node's keyword.
    case bound(Int)
    /// A `pattern` that is `^`, units and `$` (``Program/wholePatterns``' entry): an ASCII string
    /// that is one of its units per byte passes here; any other instance goes to the node's keyword.
    case wholePattern(Int)
    /// `properties`, `patternProperties` and `additionalProperties` (``Program/applicators``'
    /// entry), read without copying the node's keyword (kept, see
    /// Benchmarks/Gate/kept-shortcuts.md).
    case object(Int)
    case keyword(Int)

    /// The step for `keyword`, the node's keyword at `position`.
    init(_ keyword: Keyword, at position: Int) {
        switch keyword {
        case .type(let types, let strictIntegers): self = .type(types, strictIntegers: strictIntegers)
        case .maxLength(let n): self = .maxLength(n)
        case .minLength(let n): self = .minLength(n)
        case .maxItems(let n): self = .maxItems(n)
        case .minItems(let n): self = .minItems(n)
        case .maxProperties(let n): self = .maxProperties(n)
        case .minProperties(let n): self = .minProperties(n)
        case .ref(let target, let dynamic): self = .ref(target, dynamic: dynamic)
        case .items(let child, let start, let additional): self = .items(child, from: start, additional: additional)
        case .readOnly: self = .readOnly
        case .writeOnly: self = .writeOnly
        default: self = .keyword(position)
        }
    }
}

/// A number keyword's limit as a ``Step`` holds it, without the limit's exact digits: its
/// nearest `Double` and, when it is a 64-bit integer, that integer (``NumberLimit``'s fast paths).
struct NumberBound: Sendable {
    let double: Double
    let integer: Int64
    let hasInteger: Bool
    let exclusive: Bool
    let isMaximum: Bool
    /// The keyword's position in its node.
    let position: Int

    init(_ limit: NumberLimit, exclusive: Bool, isMaximum: Bool, position: Int) {
        double = limit.double
        integer = limit.integer ?? 0
        hasInteger = limit.integer != nil
        self.exclusive = exclusive
        self.isMaximum = isMaximum
        self.position = position
    }

    /// Whether `number` is within the bound, when ``Validator/compare(_:_:)`` orders it without
    /// exact digits; `nil` when it cannot. Inlined into the step (kept, see
    /// Benchmarks/Gate/kept-shortcuts.md).
    @inline(__always)
    func admits(_ number: BinaryNumber) -> Bool? {
        let order: Int
        switch number {
        case .integer(let i):
            guard hasInteger else { return nil }
            order = i < integer ? -1 : i > integer ? 1 : 0
        case .float(let d):
            if d.isInfinite {
                order = d < 0 ? -1 : 1
            } else if d.isNaN || d == double {
                return nil
            } else {
                order = d < double ? -1 : 1
            }
        }
        return isMaximum ? order < 0 || (order == 0 && !exclusive) : order > 0 || (order == 0 && !exclusive)
    }
}

/// A set of JSON types.
package struct TypeSet: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package static let null = TypeSet(rawValue: 1)
    package static let boolean = TypeSet(rawValue: 2)
    package static let integer = TypeSet(rawValue: 4)
    package static let number = TypeSet(rawValue: 8)
    package static let string = TypeSet(rawValue: 16)
    package static let array = TypeSet(rawValue: 32)
    package static let object = TypeSet(rawValue: 64)

    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The type of `value` (a number without a fractional part is an integer).
    package init(of value: Value) {
        switch InstanceKind(value) {
        case .null: self = .null
        case .boolean: self = .boolean
        case .integer: self = .integer
        case .number: self = .number
        case .string: self = .string
        case .array: self = .array
        case .object: self = .object
        }
    }

    /// The type named `name` in a schema, if it is one.
    package init?(name: String) {
        switch name {
        case "null": self = .null
        case "boolean": self = .boolean
        case "integer": self = .integer
        case "number": self = .number
        case "string": self = .string
        case "array": self = .array
        case "object": self = .object
        default: return nil
        }
    }

    /// Whether an instance of `kind` has one of these types (`number` admits integers).
    func admits(_ kind: InstanceKind) -> Bool {
        switch kind {
        case .null: contains(.null)
        case .boolean: contains(.boolean)
        case .integer: contains(.integer) || contains(.number)
        case .number: contains(.number)
        case .string: contains(.string)
        case .array: contains(.array)
        case .object: contains(.object)
        }
    }

    /// The names, for messages.
    var names: [String] {
        let all: [(TypeSet, String)] = [
            (.null, "null"), (.boolean, "boolean"), (.integer, "integer"),
            (.number, "number"), (.string, "string"), (.array, "array"),
            (.object, "object"),
        ]
        return all.filter { contains($0.0) }.map(\.1)
    }
}

/// A schema's properties, pattern properties and additional properties, checked in one pass
/// over the instance's members. A class, so that checking the keyword borrows its arrays instead
/// of copying (retaining) each of them.
final class ObjectApplicator: Sendable {
    /// The names of `properties`, found from a member's name (its bytes, read from a tape).
    let names: PropertyNames
    /// The node of each of `properties`, by position.
    let nodes: [Int]
    let patternProperties: [(pattern: ECMAPattern, source: String, node: Int)]
    /// The node members matched by neither go to, if `additionalProperties` is present.
    let additional: Int?
    /// Whether `properties` is present (for keyword locations).
    let hasProperties: Bool
    /// The node's `required` names when they are checked here (see ``init(_:required:)``).
    let required: [String]
    /// For each of `properties` (when `required` is not empty): the bits of the `required`
    /// entries it satisfies, so a member marks them as it is matched.
    let requiredBits: [UInt64]

    /// The keyword's parts as the compiler gathers them.
    struct Parts {
        var properties: [(name: String, node: Int)] = []
        var patternProperties: [(pattern: ECMAPattern, source: String, node: Int)] = []
        var additional: Int?
        var hasProperties = false
    }

    /// The applicator of `parts`, taking over `required` (a keyword that comes just before this
    /// one) when it can, so a valid object's required names are marked during the pass over its
    /// members instead of each looked up: only when every name is a listed property and there are
    /// few enough for a bit each. Whether it took them is ``required``'s being non-empty.
    init(_ parts: Parts, required names: [String]) {
        self.names = PropertyNames(parts.properties.map(\.name))
        nodes = parts.properties.map(\.node)
        patternProperties = parts.patternProperties
        additional = parts.additional
        hasProperties = parts.hasProperties
        if let bits = Self.requiredBits(names, parts.properties) {
            required = names
            requiredBits = bits
        } else {
            required = []
            requiredBits = []
        }
    }

    /// For each property, the bits of the `names` it satisfies; `nil` when a name is not a
    /// property or there are none or more than 64.
    private static func requiredBits(_ names: [String], _ properties: [(name: String, node: Int)]) -> [UInt64]? {
        guard !names.isEmpty, names.count <= 64 else { return nil }
        var bits = [UInt64](repeating: 0, count: properties.count)
        for (slot, name) in names.enumerated() {
            // A repeated property name: the first is the one a member matches.
            guard let i = properties.firstIndex(where: { $0.name == name }) else { return nil }
            bits[i] |= 1 << UInt64(slot)
        }
        return bits
    }
}

/// OpenAPI's `discriminator`: the named property's value picks the schema to validate against.
/// A class, so that checking the keyword borrows it instead of copying its parts.
final class Discriminator: Sendable {
    let propertyName: String
    /// Values to nodes: `mapping` entries, then the names of `oneOf`/`anyOf` references.
    let choices: [(value: String, node: Int)]
    /// Resolves a value not in `choices` as a schema name (`#/components/schemas/<value>`).
    let byName: [String: Int]

    init(propertyName: String, choices: [(value: String, node: Int)], byName: [String: Int]) {
        self.propertyName = propertyName
        self.choices = choices
        self.byName = byName
    }
}

/// One compiled keyword. `name` fields are not needed: each case knows its keyword. Indirect, so
/// that a copy of a keyword is one retain whatever its payload.
indirect enum Keyword: Sendable {
    case alwaysFalse
    /// `strictIntegers`: draft 4 counts `1.0` as a number, not an integer.
    case type(TypeSet, strictIntegers: Bool)
    case enumeration([Value], Set<JSONKey>?)
    case const(Value)
    case multipleOf(ExactNumber, Double)
    case maximum(NumberLimit, exclusive: Bool, keyword: String)
    case minimum(NumberLimit, exclusive: Bool, keyword: String)
    case maxLength(Int)
    case minLength(Int)
    case pattern(ECMAPattern, String)
    case format(FormatKind, String)
    case maxItems(Int)
    case minItems(Int)
    case uniqueItems
    case maxProperties(Int)
    case minProperties(Int)
    case required([String])
    /// OpenAPI: required except in the given direction (a `readOnly` property in a request).
    case requiredUnlessDirection([(String, JSONSchema.Direction)])
    case dependentRequired([(String, [String])], keyword: String)
    case dependentSchemas([(String, Int)], keyword: String)
    case object(ObjectApplicator)
    case propertyNames(Int)
    /// `prefixItems` (2020-12) or array-form `items` (draft 4).
    case prefixItems([Int], keyword: String)
    /// `items` after a prefix (2020-12), or schema-form `items` / `additionalItems` (draft 4).
    case items(Int, from: Int, additional: Bool)
    case contains(Int, min: Int, max: Int?)
    case allOf([Int])
    case anyOf([Int])
    case oneOf([Int])
    case not(Int)
    case ifThenElse(if: Int, then: Int?, else: Int?)
    /// `$ref`, or a `$dynamicRef` that resolves statically.
    case ref(Int, dynamic: Bool)
    case dynamicRef(name: String, fallback: Int)
    case discriminator(Discriminator)
    case readOnly
    case writeOnly
    case unevaluatedItems(Int)
    case unevaluatedProperties(Int)
}
