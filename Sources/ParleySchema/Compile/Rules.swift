/// What a subschema's keywords mean: its dialect and the vocabularies its meta-schema enables.
struct Rules: Sendable, Hashable {
    var dialect: JSONSchema.Dialect
    var applicator = true
    var validation = true
    var unevaluated = true
    var formatAssertion = false
    var isDraft4Family: Bool { dialect.isDraft4Family }
}
