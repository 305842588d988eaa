import Benchmark
import BenchmarkInputs
import Parley
import ParleyJSON
import ParleySchema

// JSON Schema validation (issue #34) on values already decoded (the anchors validate in-memory
// documents too, see Scripts/schema-anchors.py):
// - object-100b: a flat 100-byte object against a 5-property schema (`smallObject`), built members;
// - api-1mb: the JSON suite's API-like document (about 1 MiB, 2,500 records) against `apiDocumentSchema`;
// - compile: the API schema, and the bundled 2020-12 meta-schema reached through `$ref`.

let json = JSONFormat()
let small = try! json.decode(Array(smallObject.utf8)).resolved()
let smallSchema = try! JSONSchema(try! json.decode(Array(smallObjectSchema.utf8)))
let apiValue = try! json.decode(makeAPIDocument(size: 1 << 20, seed: 1)).resolved()
let apiSchemaValue = try! json.decode(Array(apiDocumentSchema.utf8)).resolved()
let apiSchema = try! JSONSchema(apiSchemaValue)

let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "Schema.isValid-object-100b",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .instructions], scalingFactor: .kilo,
            maxDuration: .seconds(3))
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try smallSchema.isValid(small)) }
    }
    Benchmark(
        "Schema.validate-object-100b",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .instructions], scalingFactor: .kilo,
            maxDuration: .seconds(3))
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try smallSchema.validate(small)) }
    }
    Benchmark(
        "Schema.isValid-api-1mb",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(4))
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try apiSchema.isValid(apiValue)) }
    }
    Benchmark(
        "Schema.compile-api-schema",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try JSONSchema(apiSchemaValue)) }
    }
    Benchmark(
        "Schema.compile-2020-12-metaschema",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONSchema(["$ref": "https://json-schema.org/draft/2020-12/schema"]))
        }
    }
}
