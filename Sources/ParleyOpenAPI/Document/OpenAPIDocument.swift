import FoundationEssentials
public import Parley
import ParleySchema

/// An OpenAPI 3.0.x or 3.1.x document, loaded and compiled for checking exchanges.
///
/// ```swift
/// let document = try OpenAPIDocument(contentsOf: "openapi.yaml", registry: registry)
/// let checker = ContractChecker(document: document, registry: registry)
/// ```
///
/// The document's files are decoded with the registry's JSON or YAML format and its structure
/// (paths, operations, parameters, bodies, responses, following `$ref`s) is read from those
/// values; its Schema Objects compile with `ParleySchema` from the document's own text, in the
/// dialect of its version, so their `$ref`s (internal, or to local files) resolve as written.
public struct OpenAPIDocument: Sendable {
    /// The `openapi` field (`3.0.3`, `3.1.0`).
    public let version: String
    /// The `file://` URI of the document.
    public let uri: String
    /// Every operation, in document order.
    public let operations: [CompiledOperation]
    /// Every base path of a `servers` list (the document's, a path item's or an operation's:
    /// `/v1`), longest first; `[[]]` when there is none.
    let basePaths: [[PathSegmentPattern]]
    /// The indices in ``basePaths`` of the base paths that serve each operation, by operation.
    let servedBases: [[Int]]
    /// Operations by path template.
    let router: OperationRouter

    /// Loads the document at `path`.
    ///
    /// - Parameters:
    ///   - path: A JSON or YAML file.
    ///   - registry: The formats its files decode with (JSON and YAML).
    /// - Throws: ``OpenAPILoadError`` naming the file and the place in it.
    public init(contentsOf path: String, registry: Registry) throws(OpenAPILoadError) {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        try self.init(uri: RawLocation.resolve(absolute, against: "file:///"), files: DocumentFiles(registry: registry))
    }

    /// Loads a document already decoded, named `uri` (a `file://` URI: relative `$ref`s resolve
    /// against it).
    ///
    /// - Throws: ``OpenAPILoadError`` naming the place.
    public init(_ value: Value, uri: String, registry: Registry) throws(OpenAPILoadError) {
        var files = DocumentFiles(registry: registry)
        files.values[uri] = value
        try self.init(uri: uri, files: files)
    }

    init(uri: String, files: DocumentFiles) throws(OpenAPILoadError) {
        var compiler = try DocumentCompiler(uri: uri, files: files)
        self.version = compiler.version
        self.uri = uri
        self.operations = try compiler.compileOperations(documentBases: try compiler.basePaths())
        var bases: Set<[PathSegmentPattern]> = []
        for operation in operations { bases.formUnion(operation.basePaths) }
        let basePaths = bases.isEmpty ? [[]] : bases.sorted { $0.count > $1.count }
        self.basePaths = basePaths
        self.servedBases = operations.map { operation in
            basePaths.indices.filter { operation.basePaths.contains(basePaths[$0]) }
        }
        var router = OperationRouter()
        for (index, operation) in operations.enumerated() {
            try router.add(template: operation.pathTemplate, method: operation.method, operation: index, file: uri)
        }
        self.router = router
    }

    /// The operation for `method` and a request path (no query), its path parameters (raw,
    /// still percent-encoded) and the path template; `nil` when nothing matches. HEAD falls
    /// back to GET. An operation matches only under the base paths of its own servers.
    public func operation(method: String, path: String) -> OperationMatch? {
        operation(method: method, path: path[...])
    }

    /// ``operation(method:path:)`` of a path that is part of a request's target, matched over
    /// its UTF-8 bytes.
    func operation(method: String, path: Substring) -> OperationMatch? {
        // Methods are upper case as a rule: one is only copied when it is not.
        let upper = method.utf8.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
            ? method.uppercased() : method
        return path.withUTF8Bytes { bytes in
            for (baseIndex, base) in basePaths.enumerated() {
                guard let offset = Self.offset(after: base, in: bytes),
                      let found = router.lookup(bytes, from: offset) else { continue }
                let methods = ServedMethods(candidates: found.operations, servedBases: servedBases, base: baseIndex)
                let index = methods.operation(for: upper) ?? (upper == "HEAD" ? methods.operation(for: "GET") : nil)
                if index == nil && methods.sorted.isEmpty { continue }
                return OperationMatch(operation: index.map { operations[$0] }, pathTemplate: found.template,
                                      variables: PathVariables(names: found.names, path: path, ranges: found.captures),
                                      methods: methods)
            }
            return nil
        }
    }

    /// Where the rest of `path` starts when its first segments match `base`, else `nil`.
    private static func offset(after base: [PathSegmentPattern], in path: UnsafeBufferPointer<UInt8>) -> Int? {
        var offset = 0
        for pattern in base {
            guard let segment = OperationRouter.segment(in: path, from: offset), pattern.matches(path, segment) else {
                return nil
            }
            offset = segment.upperBound
        }
        return offset
    }
}

/// The result of matching a request to the document.
public struct OperationMatch: Sendable {
    /// The operation; `nil` when the path matched but the method did not.
    public let operation: CompiledOperation?
    /// The path template that matched.
    public let pathTemplate: String
    /// Path parameters by name, as they appear in the path (percent-encoded).
    public var pathParameters: [String: String] { variables.dictionary }
    /// The methods the matched path declares (listed only when asked: a matched operation needs no list).
    public var allowedMethods: [String] { methods.sorted }
    /// ``pathParameters`` as the router matched them.
    let variables: PathVariables
    let methods: ServedMethods
}

/// The methods of a matched path template whose operations are served under one base path.
struct ServedMethods: Sendable {
    /// Operation indices by method, at the template (under any base path).
    let candidates: [(method: String, operation: Int)]
    /// The indices in ``OpenAPIDocument/basePaths`` of the base paths serving each operation.
    let servedBases: [[Int]]
    /// The index of the base path matched.
    let base: Int

    /// The index of `method`'s operation, when it is served under ``base``.
    func operation(for method: String) -> Int? {
        guard let candidate = candidates.first(where: { $0.method == method }) else { return nil }
        return servedBases[candidate.operation].contains(base) ? candidate.operation : nil
    }

    /// The served methods, sorted.
    var sorted: [String] { candidates.map(\.method).filter { operation(for: $0) != nil }.sorted() }
}
