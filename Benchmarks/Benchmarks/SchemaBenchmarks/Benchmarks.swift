import Benchmark
import Foundation
import BenchmarkInputs
import Parley
import ParleyJSON
import ParleySchema
import PerfWorkloads

// JSON Schema validation (issue #34) on values already decoded (the anchors validate in-memory
// documents too, see Scripts/schema-anchors.py):
// - object-100b: a flat 100-byte object against a 5-property schema (`smallObject`), built members;
// - api-1mb: the JSON suite's API-like document (about 1 MiB, 2,500 records) against `apiDocumentSchema`;
// - geojson-2mb: the JSON suite's 2 MiB GeoJSON FeatureCollection against `geoJSONSchema`;
// - openapi30/31: the bundled OpenAPI document schemas against the real Twilio (3.0.1) and OpenAI (3.1.0)
//   descriptions of ../shared/corpora/real-world/documents (left out, with a message, when absent);
// - compile: the API schema, the bundled 2020-12 meta-schema reached through `$ref`, and the OpenAPI 3.1
//   document schema.

let json = JSONFormat()
let small = try! json.decode(Array(smallObject.utf8)).resolved()
let smallSchema = try! JSONSchema(try! json.decode(Array(smallObjectSchema.utf8)))
let apiValue = try! json.decode(makeAPIDocument(size: 1 << 20, seed: 1)).resolved()
let apiSchemaValue = try! json.decode(Array(apiDocumentSchema.utf8)).resolved()
let apiSchema = try! JSONSchema(apiSchemaValue)
let geoValue = try! json.decode(makeGeoJSON(size: 2 << 20, seed: 3)).resolved()
let geoSchema = try! JSONSchema(try! json.decode(Array(geoJSONSchema.utf8)))

/// A description from ../shared/corpora/real-world/documents (or `PARLEY_CORPORA`), or `nil` when absent.
func openAPIDescription(_ path: String) -> Value? {
    let corpora = ProcessInfo.processInfo.environment["PARLEY_CORPORA"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../../shared/corpora").standardizedFileURL
    let file = corpora.appendingPathComponent("real-world/documents").appendingPathComponent(path)
    guard let data = FileManager.default.contents(atPath: file.path) else {
        print("corpus 'real-world/documents' not found (\(file.path)): the OpenAPI description benchmarks are left out")
        return nil
    }
    return try! json.decode(Array(data)).resolved()
}

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
        "Schema.isValid-geojson-2mb",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(4))
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try geoSchema.isValid(geoValue)) }
    }
    if let twilio = openAPIDescription("json/twilio-oai/twilio_api_v2010.json"),
       let openAI = openAPIDescription("json/openai-openapi/openapi.json")
    {
        let schema30 = try! JSONSchema(openAPIDocument: .openAPI30)
        let schema31 = try! JSONSchema(openAPIDocument: .openAPI31)
        Benchmark(
            "Schema.isValid-openapi30-twilio",
            configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(4))
        ) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try schema30.isValid(twilio)) }
        }
        Benchmark(
            "Schema.isValid-openapi31-openai",
            configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(4))
        ) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try schema31.isValid(openAI)) }
        }
    }
    Benchmark(
        "Schema.compile-openapi31-schema",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try JSONSchema(openAPIDocument: .openAPI31)) }
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
