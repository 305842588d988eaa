import Parley

/// Every schema location the compiler can reach by URI: schema resources by their `$id`, JSON
/// Pointer locations inside them, `$anchor`s and `$dynamicAnchor`s.
struct SchemaIndex {
    /// A subschema and how to read it.
    struct Location {
        var value: Value
        /// The URI of the resource it belongs to (no fragment).
        var base: String
        /// The JSON Pointer from that resource's root.
        var pointer: [String]
        var rules: Rules
        /// Whether `base` already reflects the value's own `$id` (a resource root found by it).
        var idApplied = false
        /// The canonical key: `base#pointer`.
        var key: String { base + "#" + JSONPointer.pointer(pointer) }
    }

    /// Locations by absolute URI with fragment (`base#/pointer`, `base#anchor`).
    var locations: [String: Location] = [:]
    /// Resource roots by URI.
    var resources: [String: Location] = [:]
    /// Dynamic anchors by resource URI.
    var dynamicAnchors: [String: [String: Location]] = [:]

    /// The keywords holding one subschema, many in an array, or many in an object, per dialect.
    static func singleSchemaKeywords(_ rules: Rules) -> Set<String> {
        rules.isDraft4Family
            ? ["additionalItems", "additionalProperties", "not", "items"]
            : [
                "additionalProperties", "not", "items", "contains", "propertyNames", "if", "then", "else",
                "unevaluatedItems", "unevaluatedProperties",
            ]
    }

    static func arrayKeywords(_ rules: Rules) -> Set<String> {
        rules.isDraft4Family ? ["allOf", "anyOf", "oneOf", "items"] : ["allOf", "anyOf", "oneOf", "prefixItems"]
    }

    static func mapKeywords(_ rules: Rules) -> Set<String> {
        rules.isDraft4Family
            ? ["properties", "patternProperties", "definitions", "dependencies"]
            : ["properties", "patternProperties", "$defs", "dependentSchemas", "definitions", "dependencies"]
    }

    /// Indexes `value` (a schema at `pointer` of resource `base`), and everything under it.
    mutating func add(
        _ value: Value, base: String, pointer: [String], rules: Rules,
        ruleLookup: (String, Rules) throws(SchemaError) -> Rules
    ) throws(SchemaError) {
        guard case .object(let object) = value else {
            let location = Location(value: value, base: base, pointer: pointer, rules: rules)
            locations[location.key] = location
            return
        }
        var rules = rules
        var base = base
        var pointer = pointer
        if !rules.isDraft4Family, case .string(let uri)? = object["$schema"], pointer.isEmpty || object["$id"] != nil {
            rules = try ruleLookup(uri, rules)
        }
        // Register at the enclosing resource first, so pointers through an embedded resource resolve.
        let outer = Location(value: value, base: base, pointer: pointer, rules: rules)
        locations[outer.key] = outer
        let idKey = rules.isDraft4Family ? "id" : "$id"
        let hidesSiblings = rules.isDraft4Family && object["$ref"] != nil
        if !hidesSiblings, case .string(let id)? = object[idKey] {
            let resolved = URIReference.resolve(id, against: base)
            let (uri, fragment) = URIReference.split(resolved)
            if let fragment, !fragment.isEmpty {
                // Draft 4 `id: "#name"` (or `other#name`) is a plain-name anchor.
                locations[uri + "#" + fragment] = outer
                if uri != base, !uri.isEmpty { addResource(value, uri: uri, rules: rules) }
            } else {
                base = uri
                pointer = []
                addResource(value, uri: uri, rules: rules)
            }
        }
        if !rules.isDraft4Family {
            if case .string(let anchor)? = object["$anchor"] {
                locations[base + "#" + anchor] = Location(value: value, base: base, pointer: pointer, rules: rules)
            }
            if case .string(let anchor)? = object["$dynamicAnchor"] {
                let location = Location(value: value, base: base, pointer: pointer, rules: rules)
                locations[base + "#" + anchor] = location
                dynamicAnchors[base, default: [:]][anchor] = location
            }
        }
        if hidesSiblings { return }
        let single = Self.singleSchemaKeywords(rules)
        let arrays = Self.arrayKeywords(rules)
        let maps = Self.mapKeywords(rules)
        for member in object {
            let key = member.key
            if single.contains(key), case .object = member.value {
                try add(member.value, base: base, pointer: pointer + [key], rules: rules, ruleLookup: ruleLookup)
            } else if single.contains(key), case .bool = member.value {
                try add(member.value, base: base, pointer: pointer + [key], rules: rules, ruleLookup: ruleLookup)
            } else if arrays.contains(key), case .array(let elements) = member.value {
                for (i, element) in elements.enumerated() {
                    try add(
                        element, base: base, pointer: pointer + [key, String(i)], rules: rules,
                        ruleLookup: ruleLookup)
                }
            } else if maps.contains(key), case .object(let map) = member.value {
                for entry in map {
                    if case .array = entry.value { continue }  // draft-4 property dependencies
                    try add(
                        entry.value, base: base, pointer: pointer + [key, entry.key], rules: rules,
                        ruleLookup: ruleLookup)
                }
            }
        }
    }

    private mutating func addResource(_ value: Value, uri: String, rules: Rules, idApplied: Bool = true) {
        let root = Location(value: value, base: uri, pointer: [], rules: rules, idApplied: idApplied)
        resources[uri] = root
        locations[root.key] = root
    }

    /// Indexes a whole document retrieved as `uri`.
    mutating func addDocument(
        _ value: Value, uri: String, rules: Rules,
        ruleLookup: (String, Rules) throws(SchemaError) -> Rules
    ) throws(SchemaError) {
        var rules = rules
        if case .object(let object) = value, case .string(let schemaURI)? = object["$schema"] {
            rules = try ruleLookup(schemaURI, rules)
        }
        addResource(value, uri: uri, rules: rules, idApplied: false)
        try add(value, base: uri, pointer: [], rules: rules, ruleLookup: ruleLookup)
    }
}
