import BenchmarkInputs
import Parley
import ParleyJSON
import ParleySchema

// JSON Schema validation (issue #34), on SchemaInputs' documents: the flat 100-byte object (whose
// success path should allocate nothing), the 1 MiB API document in basic mode (every error kept),
// and compiling the bundled OpenAPI 3.1 document schema.

let schemaPaths: [GatedPath] = [
    GatedPath("Schema.isValid-100B-object", iterations: 100_000) { _ in
        schemaCall(smallObjectSchema, Array(smallObject.utf8)) { schema, object in
            for _ in 0..<100_000 { consume(try schema.isValid(object)) }
        }
    },
    GatedPath("Schema.validate-api-1MB") { _ in
        schemaCall(apiDocumentSchema, makeAPIDocument(size: 1 << 20, seed: 1)) { schema, document in
            consume(try schema.validate(document))
        }
    },
    GatedPath("Schema.compile-openapi31-schema", iterations: 10) { _ in
        { for _ in 0..<10 { consume(try JSONSchema(openAPIDocument: .openAPI31)) } }
    },
]

/// Why a schema path's inputs could not be prepared; the gate reports it as the path's error.
struct SchemaPathError: Error {
    let message: String
}

/// `run` on the schema compiled from `schemaText` and the instance decoded from `instance` (JSON),
/// or a call that throws why they could not be made.
func schemaCall(
    _ schemaText: String, _ instance: [UInt8], _ run: @escaping @Sendable (JSONSchema, Value) throws -> Void
) -> @Sendable () throws -> Void {
    do {
        let json = JSONFormat()
        let schema = try JSONSchema(try json.decode(Array(schemaText.utf8)))
        let value = try json.decode(instance).resolved()
        return { try run(schema, value) }
    } catch {
        let message = "\(error)"
        return { throw SchemaPathError(message: message) }
    }
}
