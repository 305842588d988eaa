import Parley

/// Turns a schema document into a ``Program``: indexes every resource, then compiles each
/// subschema reached from the root exactly once.
struct Compiler {
    let resources: SchemaResources
    let options: JSONSchema.Options
    var index = SchemaIndex()
    var nodes: [Node] = []
    var nodeByKey: [String: Int] = [:]
    var resourceNumbers: [String: Int] = [:]
    var usesDynamicScope = false
    /// Dynamic anchors whose nodes are needed, by resource and name.
    var dynamicNames: Set<String> = []

    init(resources: SchemaResources, options: JSONSchema.Options) {
        self.resources = resources
        self.options = options
    }

    /// The default base URI of a schema without `$id`.
    static let defaultBase = "urn:parley:schema"

    mutating func compile(_ document: Value) throws(SchemaError) -> Program {
        let dialect = options.dialect ?? Self.declaredDialect(of: document) ?? .draft202012
        var rules = Rules(dialect: dialect)
        rules.formatAssertion = options.formatAssertion
        if options.dialect == nil, case .object(let object) = document, case .string(let uri)? = object["$schema"] {
            rules = try self.rules(forMetaSchema: uri, inheriting: rules)
        }
        let lookup = makeRuleLookup()
        try index.addDocument(document, uri: Self.defaultBase, rules: rules, ruleLookup: lookup)
        let root = try node(
            for: SchemaIndex.Location(
                value: document, base: Self.defaultBase, pointer: [],
                rules: rules))
        // Compile the dynamic anchors any `$dynamicRef` may jump to, until no new ones appear.
        var anchorNodes: [String: [String: Int]] = [:]
        var done = false
        while !done {
            done = true
            for (base, anchors) in index.dynamicAnchors {
                for (name, location) in anchors where dynamicNames.contains(name) {
                    if anchorNodes[base]?[name] == nil {
                        anchorNodes[base, default: [:]][name] = try node(for: location)
                        done = false
                    }
                }
            }
        }
        var dynamicAnchors = [[String: Int]](repeating: [:], count: resourceNumbers.count)
        for (base, anchors) in anchorNodes {
            if let number = resourceNumbers[base] { dynamicAnchors[number] = anchors }
        }
        return Program(nodes: nodes, root: root, dynamicAnchors: dynamicAnchors, usesDynamicScope: usesDynamicScope)
    }

    /// The dialect a document's `$schema` names, if it is a known one.
    static func declaredDialect(of document: Value) -> JSONSchema.Dialect? {
        guard case .object(let object) = document, case .string(let uri)? = object["$schema"] else { return nil }
        return JSONSchema.Dialect.named(byURI: uri)
    }

    /// A closure the index calls for `$schema` inside documents.
    func makeRuleLookup() -> (String, Rules) throws(SchemaError) -> Rules {
        let resources = self.resources
        let formatAssertion = options.formatAssertion
        return { (uri: String, inherited: Rules) throws(SchemaError) -> Rules in
            try Self.rules(
                forMetaSchema: uri, inheriting: inherited, resources: resources,
                formatAssertion: formatAssertion)
        }
    }

    func rules(forMetaSchema uri: String, inheriting inherited: Rules) throws(SchemaError) -> Rules {
        try Self.rules(
            forMetaSchema: uri, inheriting: inherited, resources: resources,
            formatAssertion: options.formatAssertion)
    }

    static let vocabularyPrefix = "https://json-schema.org/draft/2020-12/vocab/"

    /// The rules a `$schema` URI selects: a known dialect, or a meta-schema the caller registered
    /// whose `$vocabulary` says which keywords apply.
    static func rules(
        forMetaSchema uri: String, inheriting inherited: Rules, resources: SchemaResources,
        formatAssertion: Bool
    ) throws(SchemaError) -> Rules {
        if let dialect = JSONSchema.Dialect.named(byURI: uri) {
            var rules = Rules(dialect: dialect)
            rules.formatAssertion = formatAssertion
            return rules
        }
        let base = URIReference.split(uri).base
        guard let metaSchema = try resources.document(at: base), case .object(let object) = metaSchema else {
            throw SchemaError(code: .unsupportedDialect, message: "unknown $schema \(uri)")
        }
        var rules = Rules(dialect: .draft202012)
        if case .string(let parent)? = object["$schema"], let dialect = JSONSchema.Dialect.named(byURI: parent) {
            rules.dialect = dialect
        }
        rules.formatAssertion = formatAssertion
        guard case .object(let vocabularies)? = object["$vocabulary"] else { return rules }
        rules.applicator = false
        rules.validation = false
        rules.unevaluated = false
        for entry in vocabularies {
            switch entry.key {
            case vocabularyPrefix + "applicator": rules.applicator = true
            case vocabularyPrefix + "validation": rules.validation = true
            case vocabularyPrefix + "unevaluated": rules.unevaluated = true
            case vocabularyPrefix + "format-assertion": rules.formatAssertion = true
            case vocabularyPrefix + "core", vocabularyPrefix + "meta-data", vocabularyPrefix + "content",
                vocabularyPrefix + "format-annotation":
                break
            default:
                if entry.value == .bool(true) {
                    throw SchemaError(
                        code: .unsupportedDialect, message: "required vocabulary \(entry.key) is not supported")
                }
            }
        }
        return rules
    }

    // MARK: - Resolving references

    /// The location `reference` names, relative to `base`.
    mutating func resolve(_ reference: String, base: String, rules: Rules) throws(SchemaError) -> SchemaIndex.Location {
        let absolute = URIReference.resolve(reference, against: base)
        let (uri, fragment) = URIReference.split(absolute)
        if index.resources[uri] == nil {
            guard let document = try resources.document(at: uri) else {
                throw SchemaError(
                    code: .unresolvedReference, message: "no document registered for \(uri)",
                    schemaLocation: absolute)
            }
            var documentRules = Rules(dialect: rules.dialect)
            documentRules.formatAssertion = options.formatAssertion
            if MetaSchemas.documents[uri] != nil, let dialect = JSONSchema.Dialect.named(byURI: uri) {
                documentRules.dialect = dialect
            }
            try index.addDocument(document, uri: uri, rules: documentRules, ruleLookup: makeRuleLookup())
        }
        let fragmentText = fragment ?? ""
        if let location = index.locations[uri + "#" + fragmentText] { return location }
        guard let root = index.resources[uri], let tokens = JSONPointer.tokens(fragmentText) else {
            throw SchemaError(
                code: .unresolvedReference, message: "\(absolute) names no schema", schemaLocation: absolute)
        }
        // A pointer to a place the index did not visit (inside an unknown keyword): walk it.
        var location = root
        for token in tokens {
            let next: Value?
            switch location.value {
            case .object(let object): next = object[token]
            case .array(let elements): next = Int(token).flatMap { $0 >= 0 && $0 < elements.count ? elements[$0] : nil }
            default: next = nil
            }
            guard let next else {
                throw SchemaError(
                    code: .unresolvedReference, message: "\(absolute) names no schema",
                    schemaLocation: absolute)
            }
            location.value = next
            location.pointer.append(token)
            location.idApplied = false
            if case .object(let object) = next,
                case .string(let id)? = object[location.rules.isDraft4Family ? "id" : "$id"],
                !id.hasPrefix("#")
            {
                location.base = URIReference.split(URIReference.resolve(id, against: location.base)).base
                location.pointer = []
                location.idApplied = true
            }
        }
        return location
    }

    // MARK: - Compiling nodes

    /// The node for `location`, compiling it on first use.
    mutating func node(for location: SchemaIndex.Location) throws(SchemaError) -> Int {
        let location = try normalized(location)
        let key = location.key
        if let existing = nodeByKey[key] { return existing }
        guard nodes.count < options.limits.maxSchemaNodes else {
            throw SchemaError(
                code: .limitExceeded, message: "the schema has more than \(options.limits.maxSchemaNodes) subschemas",
                schemaLocation: key, limit: "maxSchemaNodes")
        }
        let number = nodes.count
        nodes.append(Node())
        nodeByKey[key] = number
        var compiled = try compileNode(location)
        compiled.location = key
        compiled.resource = resourceNumber(location.base)
        nodes[number] = compiled
        return number
    }

    mutating func resourceNumber(_ base: String) -> Int {
        if let number = resourceNumbers[base] { return number }
        let number = resourceNumbers.count
        resourceNumbers[base] = number
        return number
    }

    /// The node of the subschema at `path` below `location`.
    mutating func child(_ location: SchemaIndex.Location, _ path: String...) throws(SchemaError) -> Int {
        var value = location.value
        for token in path {
            switch value {
            case .object(let object): value = object[token] ?? .bool(true)
            case .array(let elements): value = Int(token).map { elements[$0] } ?? .bool(true)
            default: value = .bool(true)
            }
        }
        return try node(
            for: SchemaIndex.Location(
                value: value, base: location.base, pointer: location.pointer + path,
                rules: location.rules))
    }

    /// `location` moved to the resource its own `$id` starts, with the rules its `$schema` selects.
    func normalized(_ location: SchemaIndex.Location) throws(SchemaError) -> SchemaIndex.Location {
        guard case .object(let object) = location.value, !location.idApplied else { return location }
        var location = location
        location.idApplied = true
        let draft4 = location.rules.isDraft4Family
        if draft4 && object["$ref"] != nil { return location }
        if case .string(let id)? = object[draft4 ? "id" : "$id"] {
            let (uri, fragment) = URIReference.split(URIReference.resolve(id, against: location.base))
            if fragment?.isEmpty ?? true {
                location.base = uri
                location.pointer = []
                if let indexed = index.resources[uri] { location.rules = indexed.rules }
            }
        }
        return location
    }

    func invalid(_ location: SchemaIndex.Location, _ keyword: String, _ message: String) -> SchemaError {
        SchemaError(
            code: .invalidSchema, message: "\(keyword): \(message)",
            schemaLocation: location.base + "#" + JSONPointer.pointer(location.pointer + [keyword]))
    }
}
