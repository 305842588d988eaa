import Parley

/// The meta-schemas bundled with the module, by their URIs; references to them never leave the process.
enum MetaSchemas {
    /// One member of a generated object.
    static func member(_ key: String, _ value: Value) -> Value.Object.Member {
        Value.Object.Member(key: key, value: value)
    }

    static let draft4URI = "http://json-schema.org/draft-04/schema"
    static let draft202012URI = "https://json-schema.org/draft/2020-12/schema"
    static let openAPI31DialectURI = "https://spec.openapis.org/oas/3.1/dialect/base"
    static let openAPI30SchemaURI = "https://spec.openapis.org/oas/3.0/schema/2021-09-28"
    static let openAPI31SchemaURI = "https://spec.openapis.org/oas/3.1/schema/2022-10-07"
    static let openAPI31SchemaBaseURI = "https://spec.openapis.org/oas/3.1/schema-base/2022-10-07"

    /// The bundled documents by URI (without a fragment).
    static let documents: [String: Value] = [
        draft4URI: draft4,
        "https://json-schema.org/draft/2020-12/schema": draft202012,
        "https://json-schema.org/draft/2020-12/meta/core": draft202012Core,
        "https://json-schema.org/draft/2020-12/meta/applicator": draft202012Applicator,
        "https://json-schema.org/draft/2020-12/meta/unevaluated": draft202012Unevaluated,
        "https://json-schema.org/draft/2020-12/meta/validation": draft202012Validation,
        "https://json-schema.org/draft/2020-12/meta/meta-data": draft202012MetaData,
        "https://json-schema.org/draft/2020-12/meta/format-annotation": draft202012FormatAnnotation,
        "https://json-schema.org/draft/2020-12/meta/format-assertion": draft202012FormatAssertion,
        "https://json-schema.org/draft/2020-12/meta/content": draft202012Content,
        openAPI30SchemaURI: openAPI30Schema,
        openAPI31SchemaURI: openAPI31Schema,
        openAPI31SchemaBaseURI: openAPI31SchemaBase,
        openAPI31DialectURI: openAPI31Dialect,
        "https://spec.openapis.org/oas/3.1/meta/base": openAPI31MetaBase,
    ]
}
