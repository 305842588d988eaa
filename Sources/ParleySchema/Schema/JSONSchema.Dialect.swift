extension JSONSchema {
    /// The rules a schema is read by.
    public enum Dialect: String, Sendable, Hashable, CaseIterable {
        /// JSON Schema draft 4.
        case draft4 = "draft4"
        /// The OpenAPI 3.0 Schema Object: draft 4 plus `nullable`, boolean `exclusiveMinimum` and
        /// `exclusiveMaximum`, `discriminator`, and `readOnly`/`writeOnly` judged by direction.
        case openAPI30 = "openapi-3.0"
        /// JSON Schema 2020-12.
        case draft202012 = "2020-12"
        /// The OpenAPI 3.1 dialect: 2020-12 plus `discriminator`.
        case openAPI31 = "openapi-3.1"

        /// Whether the dialect is built on draft 4 (`id`, `definitions`, `$ref` hides its siblings).
        var isDraft4Family: Bool { self == .draft4 || self == .openAPI30 }

        /// The dialect a `$schema` URI names, if it is one the module knows.
        static func named(byURI uri: String) -> Dialect? {
            var text = uri
            if text.hasSuffix("#") { text.removeLast() }
            switch text {
            case "http://json-schema.org/draft-04/schema", "https://json-schema.org/draft-04/schema": return .draft4
            case MetaSchemas.draft202012URI: return .draft202012
            case MetaSchemas.openAPI31DialectURI, "https://spec.openapis.org/oas/3.1/schema-base": return .openAPI31
            default: return nil
            }
        }
    }

    /// Which side of an exchange an instance is, for OpenAPI's `readOnly` and `writeOnly`.
    public enum Direction: String, Sendable, Hashable {
        /// A request body: `readOnly` properties must not appear.
        case request
        /// A response body: `writeOnly` properties must not appear.
        case response
    }
}
