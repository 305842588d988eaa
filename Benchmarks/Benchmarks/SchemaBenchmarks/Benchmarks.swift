import Benchmark
import Foundation
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

/// With `PARLEY_BENCHMARK_GATE` set (`make bench-gate`), only the flat object's malloc counts are
/// measured, against the committed thresholds in Thresholds/: `isValid` allocates nothing.
let gate = ProcessInfo.processInfo.environment["PARLEY_BENCHMARK_GATE"] != nil

let benchmarks: @Sendable () -> Void = {
    let objectMetrics: [BenchmarkMetric] = gate ? [.mallocCountTotal] : [.wallClock, .mallocCountTotal]
    let noMallocGrowth: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(absolute: [.p90: 0])]
    let object = Benchmark.Configuration(
        metrics: objectMetrics, scalingFactor: .kilo, maxDuration: .seconds(gate ? 1 : 3), thresholds: noMallocGrowth)
    Benchmark("Schema.isValid-object-100b", configuration: object) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try smallSchema.isValid(small)) }
    }
    Benchmark("Schema.validate-object-100b", configuration: object) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try smallSchema.validate(small)) }
    }
    if gate { return }
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
