import Parley
import ParleySchema

/// Walks a document's decoded value for what checking needs: operations, their parameters,
/// bodies and responses (following Reference Objects by place), each Schema Object compiled
/// from the raw text at its place.
struct DocumentCompiler {
    let uri: String
    var files: DocumentFiles
    let root: Value.Object
    let version: String
    /// Whether the document is OpenAPI 3.0 (else 3.1).
    let isOpenAPI30: Bool
    let schemaOptions: ParleySchema.JSONSchema.Options
    /// The schemas compiled so far, by the place their `$ref`s lead to (``referencedPlace(of:at:)``).
    var compiledSchemas: [String: ParleySchema.JSONSchema] = [:]
    /// At most this many `$ref` hops from one place to what it names.
    static let maxReferenceHops = 32
    /// The fields of a Path Item Object that hold operations (read in document order).
    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    init(uri: String, files: DocumentFiles) throws(OpenAPILoadError) {
        self.uri = uri
        self.files = files
        let top = RawLocation(file: uri, pointer: [])
        let root = try Self.object(try self.files.file(uri), at: top, "an OpenAPI document")
        guard case .string(let version)? = root["openapi"] else {
            throw OpenAPILoadError(.unsupportedVersion, file: uri, pointer: "/openapi",
                                   message: "no openapi field: this is not an OpenAPI 3 document")
        }
        self.root = root
        self.version = version
        let dialect: ParleySchema.JSONSchema.Dialect
        switch ParleySchema.JSONSchema.OpenAPIDocumentSchema(openAPIVersion: version) {
        case .openAPI30?:
            dialect = .openAPI30
            self.isOpenAPI30 = true
            guard root["paths"] != nil else {
                throw Self.invalid(top, "no paths object (an OpenAPI 3.0 document needs one)")
            }
        case .openAPI31?, .openAPI31WithDialect?:
            dialect = .openAPI31
            self.isOpenAPI30 = false
        case nil:
            throw OpenAPILoadError(.unsupportedVersion, file: uri, pointer: "/openapi",
                                   message: "openapi \(version): only 3.0.x and 3.1.x are read")
        }
        if let paths = root["paths"] { _ = try Self.object(paths, at: top.appending("paths"), "paths") }
        var resources = SchemaResources()
        resources.register(.object(root), at: uri)
        let registry = files.registry
        resources.serve(folder: "", under: "file://") { bytes in
            try DocumentFiles.decode(bytes, path: "", registry: registry)
        }
        self.schemaOptions = ParleySchema.JSONSchema.Options(dialect: dialect, resources: resources)
    }

    /// The document's root, where `openapi`, `servers` and `paths` are.
    var top: RawLocation { RawLocation(file: uri, pointer: []) }

    /// The base paths of the document's servers, variables set to their defaults and enums;
    /// longest first. A document without servers has the base path `/`.
    func basePaths() throws(OpenAPILoadError) -> [[PathSegmentPattern]] {
        try basePaths(of: root, at: top) ?? [[]]
    }

    /// The base paths of the `servers` of `owner` (the document, a Path Item Object or an
    /// Operation Object) at `location`, longest first; `nil` when it has none, so the enclosing
    /// object's servers apply.
    func basePaths(of owner: Value.Object, at location: RawLocation) throws(OpenAPILoadError)
        -> [[PathSegmentPattern]]?
    {
        var paths: Set<[PathSegmentPattern]> = []
        let place = location.appending("servers")
        for (index, entry) in try Self.array(owner, "servers", at: location).enumerated() {
            let serverPlace = place.appending(String(index))
            let server = try Self.object(entry, at: serverPlace, "a Server Object")
            guard let url = try Self.string(server, "url", at: serverPlace) else {
                throw Self.invalid(serverPlace, "a Server Object needs a url")
            }
            var variables: [(name: String, values: [String])] = []
            for member in try Self.members(server, "variables", at: serverPlace) {
                let variablePlace = serverPlace.appending("variables", member.key)
                let variable = try Self.object(member.value, at: variablePlace, "a Server Variable Object")
                guard let fallback = try Self.string(variable, "default", at: variablePlace) else {
                    throw Self.invalid(variablePlace, "a Server Variable Object needs a default")
                }
                var values = [fallback]
                for (offset, value) in try Self.array(variable, "enum", at: variablePlace).enumerated() {
                    guard case .string(let text) = value else {
                        throw Self.invalid(variablePlace.appending("enum", String(offset)), "must be a string")
                    }
                    if !values.contains(text) { values.append(text) }
                }
                variables.append((member.key, values))
            }
            for url in Self.expand(url, variables: variables) {
                paths.insert(Self.pathSegments(ofServerURL: url))
            }
        }
        if paths.isEmpty { return nil }
        return paths.sorted { $0.count > $1.count }
    }

    /// A server URL with each `{variable}` replaced by its default or one of its enum values
    /// (at most 64 combinations).
    static func expand(_ url: String, variables: [(name: String, values: [String])]) -> [String] {
        var results = [url]
        for (name, values) in variables {
            results = results.flatMap { url in values.map { url.replacing("{\(name)}", with: $0) } }
            if results.count > 64 { results = Array(results.prefix(64)) }
        }
        return results
    }

    /// The path part of a server URL (`https://host/v1` → `v1`), as literal segments.
    static func pathSegments(ofServerURL url: String) -> [PathSegmentPattern] {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
        }
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
        return OperationRouter.segments(of: String(rest)).map { .literal(String($0)) }
    }

    // MARK: - Operations

    /// Every operation, each with the base paths of the servers that serve it: its own
    /// `servers`, else its path item's, else `documentBases`.
    mutating func compileOperations(documentBases: [[PathSegmentPattern]]) throws(OpenAPILoadError)
        -> [CompiledOperation]
    {
        var operations: [CompiledOperation] = []
        let paths = RawLocation(file: uri, pointer: ["paths"])
        for member in Self.lastOfEachKey(try Self.members(root, "paths", at: top)) where !member.key.hasPrefix("x-") {
            guard member.key.hasPrefix("/") else {
                throw Self.invalid(paths.appending(member.key), "a path must start with /")
            }
            let (pathItem, itemLocation) = try resolve(paths.appending(member.key), "a Path Item Object")
            let shared = try parameters(of: pathItem, at: itemLocation)
            let itemBases = try basePaths(of: pathItem, at: itemLocation) ?? documentBases
            for (method, entry) in Self.lastOfEachKey(pathItem.members).map({ ($0.key, $0.value) })
            where Self.methods.contains(method) {
                let location = itemLocation.appending(method)
                let operation = try Self.object(entry, at: location, "an Operation Object")
                var merged = shared
                for parameter in try parameters(of: operation, at: location) {
                    merged.removeAll { $0.name == parameter.name && $0.location == parameter.location }
                    merged.append(parameter)
                }
                var body: CompiledRequestBody?
                if operation["requestBody"] != nil {
                    let (request, place) = try resolve(location.appending("requestBody"), "a Request Body Object")
                    guard request["content"] != nil else {
                        throw Self.invalid(place, "a Request Body Object needs content")
                    }
                    body = CompiledRequestBody(isRequired: try Self.bool(request, "required", at: place) ?? false,
                                               content: try content(of: request, at: place))
                }
                if isOpenAPI30, operation["responses"] == nil {
                    throw Self.invalid(location, "an Operation Object needs responses (OpenAPI 3.0)")
                }
                operations.append(CompiledOperation(
                    method: method.uppercased(), pathTemplate: member.key,
                    operationID: try Self.string(operation, "operationId", at: location),
                    parameters: merged, requestBody: body,
                    responses: try responses(of: operation, at: location),
                    basePaths: try basePaths(of: operation, at: location) ?? itemBases))
            }
        }
        return operations
    }

    mutating func responses(of operation: Value.Object, at location: RawLocation) throws(OpenAPILoadError)
        -> CompiledResponses
    {
        var responses = CompiledResponses()
        for member in try Self.members(operation, "responses", at: location) where !member.key.hasPrefix("x-") {
            let key = member.key
            let place = location.appending("responses", key)
            let digits = Array(key.utf8)
            let compiled: CompiledResponse
            if key == "default" {
                compiled = try response(key, at: place)
                responses.fallback = compiled
            } else if digits.count == 3, let code = Int(key), (100...599).contains(code) {
                compiled = try response(key, at: place)
                responses.exact[code] = compiled
            } else if digits.count == 3, (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(digits[0]),
                      key.dropFirst().uppercased() == "XX"
            {
                compiled = try response(key, at: place)
                responses.ranges[Int(digits[0] - UInt8(ascii: "0"))] = compiled
            } else {
                throw Self.invalid(place, "\(key) is not a status code, a range such as 2XX, or default")
            }
            responses.keys.append(key)
        }
        return responses
    }

    /// The operation's or path item's `parameters`.
    mutating func parameters(of owner: Value.Object, at location: RawLocation) throws(OpenAPILoadError)
        -> [CompiledParameter]
    {
        var compiled: [CompiledParameter] = []
        for index in try Self.array(owner, "parameters", at: location).indices {
            let (parameter, place) = try resolve(location.appending("parameters", String(index)),
                                                 "a Parameter Object")
            guard let name = try Self.string(parameter, "name", at: place) else {
                throw Self.invalid(place, "a Parameter Object needs a name")
            }
            guard let in_ = try Self.string(parameter, "in", at: place) else {
                throw Self.invalid(place, "a Parameter Object needs in")
            }
            guard let where_ = ParameterLocation(rawValue: in_) else {
                throw Self.invalid(place.appending("in"), "in: \(in_) is not query, header, path or cookie")
            }
            let required = try Self.bool(parameter, "required", at: place)
            if where_ == .path, required != true {
                throw Self.invalid(place, "path parameter \(name) must have required: true")
            }
            let schema: CompiledSchema?
            let deserializer: ParameterDeserializer
            switch (parameter["schema"], parameter["content"]) {
            case (_?, _?):
                throw Self.invalid(place, "a Parameter Object has schema or content, not both")
            case (nil, nil):
                throw Self.invalid(place, "a Parameter Object needs schema or content")
            case (_?, nil):
                var style: ParameterStyle?
                if let text = try Self.string(parameter, "style", at: place) {
                    guard let known = ParameterStyle(rawValue: text) else {
                        throw Self.invalid(place.appending("style"), "style \(text) is not an OpenAPI style")
                    }
                    style = known
                }
                let explode = try Self.bool(parameter, "explode", at: place)
                let allowReserved = try Self.bool(parameter, "allowReserved", at: place) ?? false
                let allowsEmpty = try Self.bool(parameter, "allowEmptyValue", at: place) ?? false
                schema = try compileSchema(at: place.appending("schema"))
                do {
                    deserializer = try ParameterDeserializer(
                        name: name, location: where_, style: style, explode: explode, allowReserved: allowReserved,
                        allowEmptyValue: where_ == .query && allowsEmpty, schema: schema?.raw,
                        resolver: schema?.resolver ?? .none)
                } catch {
                    throw OpenAPILoadError(.invalidParameter, file: place.file, pointer: place.pointerText,
                                           message: error.message)
                }
            case (nil, _?):
                let type = try Self.members(parameter, "content", at: place).first?.key
                schema = try type.map { type throws(OpenAPILoadError) in
                    try compileSchema(at: place.appending("content", type, "schema"), optional: true)
                } ?? nil
                let mediaType = type.flatMap { try? MediaType(parsing: $0) } ?? "application/json"
                deserializer = ParameterDeserializer(name: name, location: where_, contentType: mediaType,
                                                     schema: schema?.raw, registry: files.registry)
            }
            compiled.append(CompiledParameter(
                name: name, location: where_, isRequired: required ?? false,
                deserializer: deserializer, schema: schema))
        }
        return compiled
    }

    mutating func response(_ key: String, at location: RawLocation) throws(OpenAPILoadError) -> CompiledResponse {
        let (response, place) = try resolve(location, "a Response Object")
        guard try Self.string(response, "description", at: place) != nil else {
            throw Self.invalid(place, "a Response Object needs a description")
        }
        var headers: [CompiledHeader] = []
        for member in try Self.members(response, "headers", at: place) where member.key.lowercased() != "content-type" {
            let (header, headerPlace) = try resolve(place.appending("headers", member.key), "a Header Object")
            var schema: CompiledSchema?
            switch (header["schema"], header["content"]) {
            case (_?, _?):
                throw Self.invalid(headerPlace, "a Header Object has schema or content, not both")
            case (nil, nil):
                throw Self.invalid(headerPlace, "a Header Object needs schema or content")
            case (_?, nil):
                schema = try compileSchema(at: headerPlace.appending("schema"))
            case (nil, _?):
                if let type = try Self.members(header, "content", at: headerPlace).first?.key {
                    schema = try compileSchema(at: headerPlace.appending("content", type, "schema"), optional: true)
                }
            }
            var reader: ParameterDeserializer?
            if let schema {
                do {
                    reader = try ParameterDeserializer(name: member.key, location: .header, style: .simple,
                                                       explode: false, schema: schema.raw, resolver: schema.resolver)
                } catch {
                    throw Self.invalid(headerPlace, "\(error)")
                }
            }
            headers.append(CompiledHeader(name: member.key,
                                          isRequired: try Self.bool(header, "required", at: headerPlace) ?? false,
                                          schema: schema, reader: reader))
        }
        return CompiledResponse(key: key, headers: headers, content: try content(of: response, at: place))
    }

    /// The `content` map of `owner` (a request body or a response).
    mutating func content(of owner: Value.Object, at location: RawLocation) throws(OpenAPILoadError)
        -> CompiledContent
    {
        var entries: [CompiledContent.Entry] = []
        let contentPlace = location.appending("content")
        for member in try Self.members(owner, "content", at: location) {
            guard let declared = try? MediaType(parsing: member.key) else {
                throw Self.invalid(contentPlace, "\(member.key) is not a media type")
            }
            let (_, place) = try resolve(contentPlace.appending(member.key), "a Media Type Object")
            entries.append(.init(declared: declared, schema: try compileSchema(at: place.appending("schema"),
                                                                                optional: true)))
        }
        return CompiledContent(entries: entries)
    }

    /// The Schema Object at `location` compiled (`nil` when `optional` and there is none).
    mutating func compileSchema(at location: RawLocation, optional: Bool = false) throws(OpenAPILoadError)
        -> CompiledSchema?
    {
        let raw: Value
        do {
            raw = try files.value(at: location)
        } catch {
            if optional { return nil }
            throw error
        }
        let file = try files.file(location.file)
        let target = referencedPlace(of: raw, at: location)
        if let schema = compiledSchemas[target.uri] {
            return CompiledSchema(schema: schema, raw: raw, location: location.uri,
                                  resolver: SchemaReferenceResolver(document: file))
        }
        do {
            let schema = try ParleySchema.JSONSchema(["$ref": .string(location.uri)], options: schemaOptions)
            compiledSchemas[target.uri] = schema
            return CompiledSchema(schema: schema, raw: raw, location: location.uri,
                                  resolver: SchemaReferenceResolver(document: file))
        } catch {
            // The place of the keyword that broke (which may be in a schema this one references).
            let broken = error.schemaLocation.flatMap { text in
                text.hasPrefix("file://") ? try? location.resolving(text) : nil
            } ?? location
            var message = error.message
            if broken != location {
                message += " (compiling the Schema Object at \(location.uri.dropFirst("file://".count)))"
            }
            throw OpenAPILoadError(.invalidSchema, file: broken.file, pointer: broken.pointerText, message: message)
        }
    }

    /// Where a Schema Object that is only a `$ref` (`{"$ref": "#/components/schemas/Order"}`)
    /// leads, following such objects; the schema's own place when it is more than a `$ref` or the
    /// reference does not resolve (its compilation then reports why). Schema Objects that lead to
    /// the same place validate alike, so they share one compiled schema.
    mutating func referencedPlace(of raw: Value, at location: RawLocation) -> RawLocation {
        var (value, place) = (raw, location)
        for _ in 0..<Self.maxReferenceHops {
            guard case .object(let object) = value, object.count == 1, case .string(let text)? = object["$ref"],
                  let next = try? place.resolving(text), let target = try? files.value(at: next)
            else { return place }
            (value, place) = (target, next)
        }
        return place
    }

    // MARK: - References

    /// The object at `location`, following Reference Objects (`{"$ref": …}`, into this file or
    /// other local ones), with the place it was found.
    mutating func resolve(_ location: RawLocation, _ what: String) throws(OpenAPILoadError)
        -> (Value.Object, RawLocation)
    {
        var place = location
        for _ in 0..<Self.maxReferenceHops {
            let object = try Self.object(try files.value(at: place), at: place, what)
            guard let reference = object["$ref"] else { return (object, place) }
            guard case .string(let text) = reference else {
                throw Self.invalid(place.appending("$ref"), "$ref must be a string")
            }
            place = try place.resolving(text)
        }
        throw OpenAPILoadError(.unresolvedReference, file: location.file, pointer: location.pointerText,
                               message: "more than \(Self.maxReferenceHops) $ref hops (a cycle?)")
    }

    // MARK: - Fields

    static func invalid(_ place: RawLocation, _ message: String) -> OpenAPILoadError {
        OpenAPILoadError(.invalidDocument, file: place.file, pointer: place.pointerText, message: message)
    }

    /// `members` in document order with each key once, holding its last value (as lookups do).
    static func lastOfEachKey(_ members: [Value.Object.Member]) -> [Value.Object.Member] {
        var last: [String: Value] = [:]
        for member in members { last[member.key] = member.value }
        return members.compactMap { member in
            last.removeValue(forKey: member.key).map { .init(key: member.key, value: $0) }
        }
    }

    /// `value` as an object, else an error naming `what` it should be.
    static func object(_ value: Value, at place: RawLocation, _ what: String) throws(OpenAPILoadError)
        -> Value.Object
    {
        guard case .object(let object) = value else { throw invalid(place, "\(what) must be an object") }
        return object
    }

    /// The members of the object field `key` of `owner` at `place` (none when absent).
    static func members(_ owner: Value.Object, _ key: String, at place: RawLocation) throws(OpenAPILoadError)
        -> [Value.Object.Member]
    {
        guard let value = owner[key] else { return [] }
        return try object(value, at: place.appending(key), key).members
    }

    /// The array field `key` of `owner` at `place` (empty when absent).
    static func array(_ owner: Value.Object, _ key: String, at place: RawLocation) throws(OpenAPILoadError)
        -> [Value]
    {
        guard let value = owner[key] else { return [] }
        guard case .array(let elements) = value else { throw invalid(place.appending(key), "\(key) must be an array") }
        return elements
    }

    static func string(_ owner: Value.Object, _ key: String, at place: RawLocation) throws(OpenAPILoadError)
        -> String?
    {
        guard let value = owner[key] else { return nil }
        guard case .string(let text) = value else { throw invalid(place.appending(key), "\(key) must be a string") }
        return text
    }

    static func bool(_ owner: Value.Object, _ key: String, at place: RawLocation) throws(OpenAPILoadError) -> Bool? {
        guard let value = owner[key] else { return nil }
        guard case .bool(let flag) = value else { throw invalid(place.appending(key), "\(key) must be true or false") }
        return flag
    }
}
