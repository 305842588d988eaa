public import Parley

extension JSONSchema {
    /// The schemas the OpenAPI Initiative publishes for OpenAPI documents themselves, bundled with the module.
    public enum OpenAPIDocumentSchema: String, Sendable, Hashable, CaseIterable {
        /// OpenAPI 3.0.x documents (a draft 4 schema).
        case openAPI30 = "https://spec.openapis.org/oas/3.0/schema/2021-09-28"
        /// OpenAPI 3.1.x documents (a 2020-12 schema); Schema Objects need only be objects or Booleans.
        case openAPI31 = "https://spec.openapis.org/oas/3.1/schema/2022-10-07"
        /// OpenAPI 3.1.x documents whose Schema Objects are also checked against the OpenAPI 3.1 dialect
        /// (and may not name another one in `$schema` or `jsonSchemaDialect`).
        case openAPI31WithDialect = "https://spec.openapis.org/oas/3.1/schema-base/2022-10-07"

        /// The schema for a document's `openapi` field: `3.0.x` or `3.1.x`; `nil` for other versions.
        public init?(openAPIVersion version: String) {
            let parts = version.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "3", parts[2].allSatisfy(\.isNumber), !parts[2].isEmpty else {
                return nil
            }
            switch parts[1] {
            case "0": self = .openAPI30
            case "1": self = .openAPI31
            default: return nil
            }
        }

        /// The schema document (its URI is the raw value).
        public var document: Value {
            switch self {
            case .openAPI30: MetaSchemas.openAPI30Schema
            case .openAPI31: MetaSchemas.openAPI31Schema
            case .openAPI31WithDialect: MetaSchemas.openAPI31SchemaBase
            }
        }
    }

    /// Compiles the bundled schema for OpenAPI documents of one version.
    ///
    /// - Parameters:
    ///   - openAPIDocument: Which OpenAPI version's document schema.
    ///   - options: Format assertion and limits; the dialect always comes from the document's `$schema`.
    /// - Throws: ``SchemaError`` with ``SchemaError/Code/limitExceeded`` when `options.limits` are too small.
    public init(openAPIDocument: OpenAPIDocumentSchema, options: Options = Options()) throws(SchemaError) {
        var documentOptions = options
        documentOptions.dialect = nil
        try self.init(openAPIDocument.document, options: documentOptions)
    }
}
