import FoundationEssentials
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Parley
import ParleySchema

/// Reads a document with OpenAPIKit and compiles what checking needs: operations, their
/// parameters, bodies and responses, each Schema Object compiled from the raw text at its place.
struct DocumentCompiler {
    typealias OAS = OpenAPIKit.OpenAPI

    let uri: String
    var files: DocumentFiles
    let document: OAS.Document
    let version: String
    let schemaOptions: ParleySchema.JSONSchema.Options
    /// At most this many `$ref` hops from one place to what it names.
    static let maxReferenceHops = 32

    init(uri: String, files: DocumentFiles) throws(OpenAPILoadError) {
        self.uri = uri
        self.files = files
        let root = try self.files.file(uri)
        guard case .string(let version)? = root["openapi"] else {
            throw OpenAPILoadError(.unsupportedVersion, file: uri, pointer: "/openapi",
                                   message: "no openapi field: this is not an OpenAPI 3 document")
        }
        self.version = version
        let dialect: ParleySchema.JSONSchema.Dialect
        switch ParleySchema.JSONSchema.OpenAPIDocumentSchema(openAPIVersion: version) {
        case .openAPI30?:
            dialect = .openAPI30
            self.document = try Self.decode(OpenAPIKit30.OpenAPI.Document.self, from: root, file: uri)
                .convert(to: .v3_1_1)
        case .openAPI31?, .openAPI31WithDialect?:
            dialect = .openAPI31
            self.document = try Self.decode(OAS.Document.self, from: root, file: uri)
        case nil:
            throw OpenAPILoadError(.unsupportedVersion, file: uri, pointer: "/openapi",
                                   message: "openapi \(version): only 3.0.x and 3.1.x are read")
        }
        var resources = SchemaResources()
        resources.register(root, at: uri)
        let registry = files.registry
        resources.serve(folder: "", under: "file://") { bytes in
            try DocumentFiles.decode(bytes, path: "", registry: registry)
        }
        self.schemaOptions = ParleySchema.JSONSchema.Options(dialect: dialect, resources: resources)
    }

    /// Decodes an OpenAPIKit type from a value, a failure naming the coding path.
    static func decode<T: Decodable>(_ type: T.Type, from value: Value, file: String) throws(OpenAPILoadError) -> T {
        do {
            return try ValueDecoder().decode(T.self, from: clampingIntegralFloats(value))
        } catch {
            let described = OAS.Error(from: error)
            let pointer = described.codingPath.map {
                let token = $0.intValue.map(String.init) ?? $0.stringValue
                return "/" + token.replacing("~", with: "~0").replacing("/", with: "~1")
            }.joined()
            throw OpenAPILoadError(.invalidDocument, file: file, pointer: pointer,
                                   message: described.localizedDescription)
        }
    }

    /// `value` with each integral float beyond `Int64` (the OpenAI document's integer bounds
    /// ±9223372036854776000) replaced by the nearest `Int64`: OpenAPIKit reads integer schema
    /// bounds as `Int` and refuses them otherwise. Only the copy OpenAPIKit reads is changed; the
    /// schemas compile from the document as written.
    static func clampingIntegralFloats(_ value: Value) -> Value {
        switch value {
        case .float(let number) where number.rounded() == number && abs(number) >= 9_223_372_036_854_775_808.0:
            return .integer(number > 0 ? .max : .min)
        case .number(let text) where Int64(text) == nil && text.allSatisfy({ $0.isNumber || $0 == "-" || $0 == "+" }):
            return .integer(text.hasPrefix("-") ? .min : .max)
        case .array(let elements):
            return .array(elements.map(clampingIntegralFloats))
        case .object(let object):
            return .object(Value.Object(object.members.map {
                .init(key: $0.key, value: clampingIntegralFloats($0.value))
            }))
        default:
            return value
        }
    }

    /// The base paths of the document's servers, variables set to their defaults and enums;
    /// longest first. A document without servers has the base path `/`.
    var basePaths: [[PathSegmentPattern]] {
        var paths: Set<[PathSegmentPattern]> = []
        for server in document.servers {
            for url in Self.expand(server.urlTemplate.absoluteString, variables: server.variables) {
                paths.insert(Self.pathSegments(ofServerURL: url))
            }
        }
        if paths.isEmpty { paths.insert([]) }
        return paths.sorted { $0.count > $1.count }
    }

    /// A server URL with each `{variable}` replaced by its default or one of its enum values
    /// (at most 64 combinations).
    static func expand(_ url: String, variables: OrderedDictionary<String, OAS.Server.Variable>) -> [String] {
        var results = [url]
        for (name, variable) in variables {
            let values = Array(Set([variable.default] + (variable.enum ?? [])))
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

    mutating func compileOperations() throws(OpenAPILoadError) -> [CompiledOperation] {
        var operations: [CompiledOperation] = []
        let paths = RawLocation(file: uri, pointer: ["paths"])
        for (path, item) in document.paths {
            let (pathItem, itemLocation) = try resolve(item, at: paths.appending(path.rawValue))
            let shared = try parameters(pathItem.parameters, at: itemLocation.appending("parameters"))
            for endpoint in pathItem.endpoints {
                let method = endpoint.method.rawValue.uppercased()
                let location = itemLocation.appending(endpoint.method.rawValue.lowercased())
                let operation = endpoint.operation
                var merged = shared
                for parameter in try parameters(operation.parameters, at: location.appending("parameters")) {
                    merged.removeAll { $0.name == parameter.name && $0.location == parameter.location }
                    merged.append(parameter)
                }
                var body: CompiledRequestBody?
                if let requestBody = operation.requestBody {
                    let (request, requestLocation) = try resolve(requestBody, at: location.appending("requestBody"))
                    body = CompiledRequestBody(
                        isRequired: request.required,
                        content: try content(request.content, at: requestLocation.appending("content")))
                }
                var responses = CompiledResponses()
                for (status, response) in operation.responses {
                    let compiled = try self.response(status.rawValue, response,
                                                     at: location.appending("responses", status.rawValue))
                    responses.keys.append(status.rawValue)
                    switch status.value {
                    case .default: responses.fallback = compiled
                    case .status(let code): responses.exact[code] = compiled
                    case .range(let range): responses.ranges[Int(String(range.rawValue.prefix(1)))!] = compiled
                    }
                }
                operations.append(CompiledOperation(
                    method: method, pathTemplate: path.rawValue, operationID: operation.operationId,
                    parameters: merged, requestBody: body, responses: responses))
            }
        }
        return operations
    }

    mutating func parameters(_ list: OAS.Parameter.Array, at location: RawLocation) throws(OpenAPILoadError)
        -> [CompiledParameter]
    {
        var compiled: [CompiledParameter] = []
        for (index, entry) in list.enumerated() {
            let (parameter, place) = try resolve(entry, at: location.appending(String(index)))
            let where_ = ParameterLocation(rawValue: parameter.location.rawValue) ?? .query
            var allowEmptyValue = false
            if case .query(_, let allowsEmpty, _) = parameter.context { allowEmptyValue = allowsEmpty }
            let schema: CompiledSchema?
            let deserializer: ParameterDeserializer
            switch parameter.schemaOrContent {
            case .a(let context):
                schema = try compileSchema(at: place.appending("schema"))
                do {
                    deserializer = try ParameterDeserializer(
                        name: parameter.name, location: where_, style: ParameterStyle(rawValue: context.style.rawValue),
                        explode: context.explode, allowReserved: context.allowReserved,
                        allowEmptyValue: allowEmptyValue, schema: schema?.raw, resolver: schema?.resolver ?? .none)
                } catch {
                    throw OpenAPILoadError(.invalidParameter, file: place.file, pointer: place.pointerText,
                                           message: error.message)
                }
            case .b(let content):
                let type = content.keys.first
                schema = try type.map { type throws(OpenAPILoadError) in
                    try compileSchema(at: place.appending("content", type.rawValue, "schema"), optional: true)
                } ?? nil
                let mediaType = type.flatMap { try? MediaType(parsing: $0.rawValue) } ?? "application/json"
                deserializer = ParameterDeserializer(name: parameter.name, location: where_, contentType: mediaType,
                                                     schema: schema?.raw, registry: files.registry)
            }
            compiled.append(CompiledParameter(
                name: parameter.name, location: where_, isRequired: parameter.required,
                deserializer: deserializer, schema: schema))
        }
        return compiled
    }

    mutating func response(
        _ key: String, _ entry: Either<OAS.Reference<OAS.Response>, OAS.Response>, at location: RawLocation
    ) throws(OpenAPILoadError) -> CompiledResponse {
        let (response, place) = try resolve(entry, at: location)
        var headers: [CompiledHeader] = []
        for (name, header) in response.headers ?? [:] where name.lowercased() != "content-type" {
            let (resolved, headerPlace) = try resolve(header, at: place.appending("headers", name))
            var schema: CompiledSchema?
            switch resolved.schemaOrContent {
            case .a: schema = try compileSchema(at: headerPlace.appending("schema"))
            case .b(let content):
                if let type = content.keys.first {
                    schema = try compileSchema(at: headerPlace.appending("content", type.rawValue, "schema"),
                                               optional: true)
                }
            }
            headers.append(CompiledHeader(name: name, isRequired: resolved.required, schema: schema))
        }
        return CompiledResponse(key: key, headers: headers,
                                content: try content(response.content, at: place.appending("content")))
    }

    mutating func content(_ map: OAS.Content.Map, at location: RawLocation) throws(OpenAPILoadError)
        -> CompiledContent
    {
        var entries: [CompiledContent.Entry] = []
        for (type, entry) in map {
            guard let declared = try? MediaType(parsing: type.rawValue) else {
                throw OpenAPILoadError(.invalidDocument, file: location.file, pointer: location.pointerText,
                                       message: "\(type.rawValue) is not a media type")
            }
            let (_, place) = try resolve(entry, at: location.appending(type.rawValue))
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
        do {
            let schema = try ParleySchema.JSONSchema(["$ref": .string(location.uri)], options: schemaOptions)
            return CompiledSchema(schema: schema, raw: raw, location: location.uri,
                                  resolver: SchemaReferenceResolver(document: file))
        } catch {
            throw OpenAPILoadError(.invalidSchema, file: location.file, pointer: location.pointerText,
                                   message: error.description)
        }
    }

    // MARK: - References

    /// The object an entry names, following references (internal ones through OpenAPIKit's
    /// components, others from the raw file they point into), with the place it was found.
    mutating func resolve<T: OpenAPIKit.ComponentDictionaryLocatable & Decodable>(
        _ entry: Either<OAS.Reference<T>, T>, at location: RawLocation
    ) throws(OpenAPILoadError) -> (T, RawLocation) {
        var current = entry
        var place = location
        for _ in 0..<Self.maxReferenceHops {
            guard case .a(let reference) = current else {
                guard case .b(let value) = current else { break }
                return (value, place)
            }
            let text = reference.jsonReference.absoluteString
            let target = try place.resolving(text)
            if place.file == uri, reference.jsonReference.isInternal,
                let found = try? document.components.lookupOnce(reference)
            {
                current = found
            } else {
                let raw = try files.value(at: target)
                current = try Self.decode(Either<OAS.Reference<T>, T>.self, from: raw, file: target.file)
            }
            place = target
        }
        throw OpenAPILoadError(.unresolvedReference, file: location.file, pointer: location.pointerText,
                               message: "more than \(Self.maxReferenceHops) $ref hops (a cycle?)")
    }
}
