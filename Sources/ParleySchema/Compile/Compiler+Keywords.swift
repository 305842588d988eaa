import Parley

extension Compiler {
    /// Compiles one subschema's keywords.
    mutating func compileNode(_ location: SchemaIndex.Location) throws(SchemaError) -> Node {
        var node = Node()
        let object: Value.Object
        switch location.value {
        case .bool(true): return node
        case .bool(false):
            node.keywords = [.alwaysFalse]
            return node
        case .object(let o): object = o
        default: throw invalid(location, "", "a schema must be an object or a Boolean")
        }
        let rules = location.rules
        let draft4 = rules.isDraft4Family
        let openAPI = rules.dialect == .openAPI30 || rules.dialect == .openAPI31

        if let reference = object["$ref"] {
            guard case .string(let text) = reference else { throw invalid(location, "$ref", "must be a string") }
            let target = try resolve(text, base: location.base, rules: rules)
            node.keywords.append(.ref(try self.node(for: target), dynamic: false))
            if draft4 { return node }  // draft 4 and OpenAPI 3.0: `$ref` hides its siblings
        }
        if !draft4, case .string(let text)? = object["$dynamicRef"] {
            let target = try resolve(text, base: location.base, rules: rules)
            let fallback = try self.node(for: target)
            let fragment = URIReference.split(URIReference.resolve(text, against: location.base)).fragment ?? ""
            if !fragment.isEmpty, !fragment.hasPrefix("/"), case .object(let targetObject) = target.value,
                targetObject["$dynamicAnchor"] == .string(fragment)
            {
                usesDynamicScope = true
                dynamicNames.insert(fragment)
                node.keywords.append(.dynamicRef(name: fragment, fallback: fallback))
            } else {
                node.keywords.append(.ref(fallback, dynamic: true))
            }
        }
        if rules.validation {
            try compileValidation(object, location, into: &node)
        }
        if let format = object["format"], case .string(let name) = format,
            rules.formatAssertion, let kind = FormatKind(name: name, draft4: rules.isDraft4Family)
        {
            node.keywords.append(.format(kind, name))
        }
        if rules.applicator {
            try compileApplicators(object, location, into: &node)
        }
        if openAPI {
            try compileOpenAPI(object, location, into: &node)
        }
        if !draft4 && rules.unevaluated {
            if object["unevaluatedItems"] != nil {
                node.keywords.append(.unevaluatedItems(try child(location, "unevaluatedItems")))
                node.collectsEvaluated = true
            }
            if object["unevaluatedProperties"] != nil {
                node.keywords.append(.unevaluatedProperties(try child(location, "unevaluatedProperties")))
                node.collectsEvaluated = true
            }
        }
        return node
    }

    /// A non-negative integer keyword.
    func count(_ object: Value.Object, _ keyword: String, _ location: SchemaIndex.Location) throws(SchemaError) -> Int?
    {
        guard let value = object[keyword] else { return nil }
        guard let number = ExactNumber(value), number.isInteger, !number.negative else {
            throw invalid(location, keyword, "must be a non-negative integer")
        }
        return Int(exactly: value.doubleValue ?? 0) ?? Int.max
    }

    func number(_ object: Value.Object, _ keyword: String, _ location: SchemaIndex.Location) throws(SchemaError)
        -> ExactNumber?
    {
        guard let value = object[keyword] else { return nil }
        guard let number = ExactNumber(value) else { throw invalid(location, keyword, "must be a number") }
        return number
    }

    mutating func compileValidation(
        _ object: Value.Object, _ location: SchemaIndex.Location,
        into node: inout Node
    ) throws(SchemaError) {
        let rules = location.rules
        let draft4 = rules.isDraft4Family
        if let type = object["type"] {
            var types: TypeSet = []
            switch type {
            case .string(let name):
                guard let t = TypeSet(name: name) else { throw invalid(location, "type", "unknown type \(name)") }
                types = t
            case .array(let names):
                for name in names {
                    guard case .string(let text) = name, let t = TypeSet(name: text) else {
                        throw invalid(location, "type", "unknown type \(name)")
                    }
                    types.insert(t)
                }
            default: throw invalid(location, "type", "must be a string or an array")
            }
            if rules.dialect == .openAPI30, object["nullable"] == .bool(true) { types.insert(.null) }
            node.types = types
            node.keywords.append(.type(types, strictIntegers: rules.dialect == .draft4))
        }
        if let values = object["enum"] {
            guard case .array(let elements) = values else { throw invalid(location, "enum", "must be an array") }
            let set = elements.count > 16 ? Set(elements.map { JSONKey(value: $0) }) : nil
            node.keywords.append(.enumeration(elements, set))
        }
        if !draft4, let value = object["const"] { node.keywords.append(.const(value)) }
        if let divisor = try number(object, "multipleOf", location) {
            guard !divisor.negative, !divisor.isZero else { throw invalid(location, "multipleOf", "must be above 0") }
            node.keywords.append(.multipleOf(divisor, object["multipleOf"]?.doubleValue ?? 1))
        }
        func limit(_ keyword: String) throws(SchemaError) -> NumberLimit? {
            guard let exact = try number(object, keyword, location) else { return nil }
            return NumberLimit(exact, double: object[keyword]?.doubleValue ?? 0)
        }
        if let maximum = try limit("maximum") {
            let exclusive = draft4 && object["exclusiveMaximum"] == .bool(true)
            node.keywords.append(.maximum(maximum, exclusive: exclusive, keyword: "maximum"))
        }
        if let minimum = try limit("minimum") {
            let exclusive = draft4 && object["exclusiveMinimum"] == .bool(true)
            node.keywords.append(.minimum(minimum, exclusive: exclusive, keyword: "minimum"))
        }
        if !draft4 {
            if let maximum = try limit("exclusiveMaximum") {
                node.keywords.append(.maximum(maximum, exclusive: true, keyword: "exclusiveMaximum"))
            }
            if let minimum = try limit("exclusiveMinimum") {
                node.keywords.append(.minimum(minimum, exclusive: true, keyword: "exclusiveMinimum"))
            }
        }
        if let n = try count(object, "maxLength", location) { node.keywords.append(.maxLength(n)) }
        if let n = try count(object, "minLength", location) { node.keywords.append(.minLength(n)) }
        if let pattern = object["pattern"] {
            guard case .string(let source) = pattern else { throw invalid(location, "pattern", "must be a string") }
            node.keywords.append(.pattern(try compilePattern(source, location, "pattern"), source))
        }
        if let n = try count(object, "maxItems", location) { node.keywords.append(.maxItems(n)) }
        if let n = try count(object, "minItems", location) { node.keywords.append(.minItems(n)) }
        if object["uniqueItems"] == .bool(true) { node.keywords.append(.uniqueItems) }
        if let n = try count(object, "maxProperties", location) { node.keywords.append(.maxProperties(n)) }
        if let n = try count(object, "minProperties", location) { node.keywords.append(.minProperties(n)) }
        if let required = object["required"] {
            guard case .array(let elements) = required else { throw invalid(location, "required", "must be an array") }
            var names: [String] = []
            var directional: [(String, JSONSchema.Direction)] = []
            for element in elements {
                guard case .string(let name) = element else { throw invalid(location, "required", "must hold strings") }
                if let skipped = directionSkippingRequired(name, object, location) {
                    directional.append((name, skipped))
                } else {
                    names.append(name)
                }
            }
            if !names.isEmpty || directional.isEmpty { node.keywords.append(.required(names)) }
            if !directional.isEmpty { node.keywords.append(.requiredUnlessDirection(directional)) }
        }
        // 2020-12 still reads draft 4's `dependencies`, as the suite's compatibility tests expect.
        for dependentKeyword in draft4 ? ["dependencies"] : ["dependentRequired", "dependencies"] {
            guard case .object(let map)? = object[dependentKeyword] else { continue }
            var pairs: [(String, [String])] = []
            for entry in map {
                guard case .array(let names) = entry.value else { continue }
                pairs.append((entry.key, names.compactMap(\.stringValue)))
            }
            if !pairs.isEmpty { node.keywords.append(.dependentRequired(pairs, keyword: dependentKeyword)) }
        }
    }

    /// For OpenAPI: the direction in which a required property is not required because its
    /// schema is `readOnly` (requests) or `writeOnly` (responses).
    func directionSkippingRequired(
        _ name: String, _ object: Value.Object,
        _ location: SchemaIndex.Location
    ) -> JSONSchema.Direction? {
        guard location.rules.dialect == .openAPI30 || location.rules.dialect == .openAPI31,
            case .object(let properties)? = object["properties"], case .object(var property)? = properties[name]
        else { return nil }
        if case .string(let reference)? = property["$ref"],
            let target = index.locations[URIReference.resolve(reference, against: location.base)],
            case .object(let resolved) = target.value
        {
            property = resolved
        }
        if property["readOnly"] == .bool(true) { return .request }
        if property["writeOnly"] == .bool(true) { return .response }
        return nil
    }

    /// Patterns match by code points (ECMA-262's `u` flag) in every dialect, as the suite expects of
    /// draft 4 too; a draft-4-family pattern that only the lenient non-`u` grammar accepts (an
    /// identity escape such as `\_`, common in OpenAPI 3.0 documents) compiles that way instead.
    func compilePattern(_ source: String, _ location: SchemaIndex.Location, _ keyword: String) throws(SchemaError)
        -> ECMAPattern
    {
        do {
            do {
                return try ECMAPattern(source, unicode: true)
            } catch where error.code == .syntax && location.rules.isDraft4Family {
                return try ECMAPattern(source, unicode: false)
            }
        } catch {
            throw invalid(location, keyword, "invalid pattern \(source): \(error.message)")
        }
    }

    mutating func compileApplicators(
        _ object: Value.Object, _ location: SchemaIndex.Location,
        into node: inout Node
    ) throws(SchemaError) {
        let draft4 = location.rules.isDraft4Family
        for keyword in ["allOf", "anyOf", "oneOf"] {
            guard let value = object[keyword] else { continue }
            guard case .array(let elements) = value, !elements.isEmpty else {
                throw invalid(location, keyword, "must be a non-empty array")
            }
            var children: [Int] = []
            for i in elements.indices { children.append(try child(location, keyword, String(i))) }
            switch keyword {
            case "allOf": node.keywords.append(.allOf(children))
            case "anyOf": node.keywords.append(.anyOf(children))
            default: node.keywords.append(.oneOf(children))
            }
        }
        if object["not"] != nil { node.keywords.append(.not(try child(location, "not"))) }
        if !draft4, object["if"] != nil {
            let condition = try child(location, "if")
            let then = object["then"] != nil ? try child(location, "then") : nil
            let otherwise = object["else"] != nil ? try child(location, "else") : nil
            if then != nil || otherwise != nil {
                node.keywords.append(.ifThenElse(if: condition, then: then, else: otherwise))
            } else {
                // Alone, `if` only yields annotations, which unevaluated keywords may see.
                node.keywords.append(.ifThenElse(if: condition, then: nil, else: nil))
            }
        }
        // Objects.
        var applicator = ObjectApplicator.Parts()
        if case .object(let properties)? = object["properties"] {
            applicator.hasProperties = true
            for entry in properties {
                applicator.properties.append((entry.key, try child(location, "properties", entry.key)))
            }
        }
        if case .object(let patterns)? = object["patternProperties"] {
            for entry in patterns {
                let pattern = try compilePattern(entry.key, location, "patternProperties")
                applicator.patternProperties.append(
                    (pattern, entry.key, try child(location, "patternProperties", entry.key)))
            }
        }
        if object["additionalProperties"] != nil {
            applicator.additional = try child(location, "additionalProperties")
        }
        if applicator.hasProperties || !applicator.patternProperties.isEmpty || applicator.additional != nil {
            var required: [String] = []
            if case .required(let names)? = node.keywords.last { required = names }
            let compiled = ObjectApplicator(applicator, required: required)
            if !compiled.required.isEmpty { node.keywords.removeLast() }
            node.keywords.append(.object(compiled))
        }
        if !draft4, object["propertyNames"] != nil {
            node.keywords.append(.propertyNames(try child(location, "propertyNames")))
        }
        for dependentKeyword in draft4 ? ["dependencies"] : ["dependentSchemas", "dependencies"] {
            guard case .object(let map)? = object[dependentKeyword] else { continue }
            var pairs: [(String, Int)] = []
            for entry in map {
                if case .array = entry.value { continue }
                pairs.append((entry.key, try child(location, dependentKeyword, entry.key)))
            }
            if !pairs.isEmpty { node.keywords.append(.dependentSchemas(pairs, keyword: dependentKeyword)) }
        }
        // Arrays.
        if draft4 {
            switch object["items"] {
            case .array(let elements)?:
                var children: [Int] = []
                for i in elements.indices { children.append(try child(location, "items", String(i))) }
                node.keywords.append(.prefixItems(children, keyword: "items"))
                if object["additionalItems"] != nil {
                    node.keywords.append(
                        .items(try child(location, "additionalItems"), from: elements.count, additional: true))
                }
            case .some:
                node.keywords.append(.items(try child(location, "items"), from: 0, additional: false))
            case nil: break
            }
        } else {
            var prefixCount = 0
            if case .array(let elements)? = object["prefixItems"] {
                var children: [Int] = []
                for i in elements.indices { children.append(try child(location, "prefixItems", String(i))) }
                prefixCount = elements.count
                node.keywords.append(.prefixItems(children, keyword: "prefixItems"))
            }
            if object["items"] != nil {
                node.keywords.append(.items(try child(location, "items"), from: prefixCount, additional: false))
            }
            if object["contains"] != nil {
                let minimum = location.rules.validation ? try count(object, "minContains", location) ?? 1 : 1
                let maximum = location.rules.validation ? try count(object, "maxContains", location) : nil
                node.keywords.append(.contains(try child(location, "contains"), min: minimum, max: maximum))
            }
        }
    }

    mutating func compileOpenAPI(
        _ object: Value.Object, _ location: SchemaIndex.Location,
        into node: inout Node
    ) throws(SchemaError) {
        if object["readOnly"] == .bool(true) { node.keywords.append(.readOnly) }
        if object["writeOnly"] == .bool(true) { node.keywords.append(.writeOnly) }
        guard case .object(let discriminator)? = object["discriminator"] else { return }
        guard case .string(let propertyName)? = discriminator["propertyName"] else {
            throw invalid(location, "discriminator", "needs a propertyName string")
        }
        var choices: [(value: String, node: Int)] = []
        var byName: [String: Int] = [:]
        if case .object(let mapping)? = discriminator["mapping"] {
            for entry in mapping {
                guard case .string(let target) = entry.value else { continue }
                let reference = target.contains("/") || target.contains("#") ? target : "#/components/schemas/" + target
                let resolved = try resolve(reference, base: location.base, rules: location.rules)
                choices.append((entry.key, try self.node(for: resolved)))
            }
        }
        for keyword in ["oneOf", "anyOf"] {
            guard case .array(let elements)? = object[keyword] else { continue }
            for (i, element) in elements.enumerated() {
                guard case .object(let member) = element, case .string(let reference)? = member["$ref"],
                    let name = reference.split(separator: "/").last
                else { continue }
                byName[String(name)] = try child(location, keyword, String(i))
            }
        }
        if byName.isEmpty, let root = index.resources[location.base],
            case .object(let components)? = root.value["components"], case .object(let schemas)? = components["schemas"]
        {
            for entry in schemas {
                let resolved = try resolve(
                    "#/components/schemas/" + JSONPointer.escape(entry.key),
                    base: location.base, rules: location.rules)
                byName[entry.key] = try self.node(for: resolved)
            }
        }
        // The discriminator picks the one schema to check, in place of trying each `oneOf`/`anyOf` member.
        node.keywords.removeAll {
            switch $0 {
            case .oneOf, .anyOf: true
            default: false
            }
        }
        node.keywords.append(
            .discriminator(Discriminator(propertyName: propertyName, choices: choices, byName: byName)))
    }
}
