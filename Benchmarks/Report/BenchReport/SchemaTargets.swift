import BenchmarkInputs
import Foundation
import Parley
import ParleyJSON
import ParleySchema
import PerfWorkloads

// JSON Schema (issue #34): compiled validation of values already in memory, against jsonschema-rs
// (Rust, through its Python binding) and python-jsonschema, which Scripts/schema-anchors.py times
// on the same schemas and documents of the same shape (`make bench-report` pip-installs both), and
// the OpenAPI document schemas against the real OpenAPI descriptions of ../shared/corpora (rows left
// out, with a message, when that folder is absent).

/// `isValid` on the 100-byte object (a call), the 1 MiB API document, the 2 MiB GeoJSON and the real
/// OpenAPI descriptions, and compiling the OpenAPI 3.1 document schema, with the anchors' figures.
func schemaTargets(python: String, runs: Int, clock: Clock) throws -> [TargetRow] {
    let json = JSONFormat()
    let small = try json.decode(Array(smallObject.utf8)).resolved()
    let smallSchema = try JSONSchema(try json.decode(Array(smallObjectSchema.utf8)))
    let api = try json.decode(makeAPIDocument(size: 1 << 20, seed: 1)).resolved()
    let apiSchema = try JSONSchema(try json.decode(Array(apiDocumentSchema.utf8)))
    guard try smallSchema.isValid(small), try apiSchema.isValid(api) else {
        throw ReportError("the benchmark documents do not validate")
    }
    let calls = 100_000
    let timings = try timeInterleaved(runs: runs, clock: clock, [
        { for _ in 0..<calls { consume(try smallSchema.isValid(small)) } },
        { consume(try apiSchema.isValid(api)) },
    ])
    let perCall = Timing(runs: timings[0].runs.map { $0 / Double(calls) })
    let documents = openAPIDocumentsFolder()
    let anchors = try schemaAnchors(python: python, documents: documents)
    func anchor(_ name: String) throws -> Timing {
        guard let seconds = anchors[name] else { throw ReportError("schema-anchors.py printed no '\(name)'") }
        return Timing(runs: [seconds])
    }
    return [
        speedRow("JSON Schema isValid, 100-byte object vs jsonschema-rs (within 3×)", parley: perCall,
                 anchor: try anchor("jsonschema-rs is_valid object-100b"), anchorName: "jsonschema-rs",
                 goal: .speedAtLeast(1.0 / 3)),
        TargetRow(path: "JSON Schema isValid, 100-byte object (≤ 1 µs)", parley: formatTiming(perCall), anchor: "",
                  figure: perCall.p50, figureOnBest: perCall.best, goal: .timeAtMost(1e-6)),
        speedRow("JSON Schema isValid, 1 MB API document vs jsonschema-rs (within 3×)", parley: timings[1],
                 anchor: try anchor("jsonschema-rs is_valid api-1mb"), anchorName: "jsonschema-rs",
                 goal: .speedAtLeast(1.0 / 3)),
        speedRow("JSON Schema isValid, 1 MB API document vs python-jsonschema (≥ 20×)", parley: timings[1],
                 anchor: try anchor("python-jsonschema is_valid api-1mb"), anchorName: "python-jsonschema",
                 goal: .speedAtLeast(20)),
    ] + (try geoJSONRows(runs: runs, clock: clock, anchor: anchor))
      + (try documents.map {
          try openAPIDocumentRows(folder: $0, runs: runs, clock: clock, anchors: anchors, anchor: anchor)
      } ?? [])
}

/// The 2 MiB GeoJSON FeatureCollection against `geoJSONSchema`.
func geoJSONRows(runs: Int, clock: Clock, anchor: (String) throws -> Timing) throws -> [TargetRow] {
    let json = JSONFormat()
    let geo = try json.decode(makeGeoJSON(size: 2 << 20, seed: 3)).resolved()
    let schema = try JSONSchema(try json.decode(Array(geoJSONSchema.utf8)))
    guard try schema.isValid(geo) else { throw ReportError("the GeoJSON document does not validate") }
    let timing = try timeInterleaved(runs: runs, clock: clock, [{ consume(try schema.isValid(geo)) }])[0]
    return [
        speedRow("JSON Schema isValid, 2 MB GeoJSON vs jsonschema-rs (within 3×)", parley: timing,
                 anchor: try anchor("jsonschema-rs is_valid geojson-2mb"), anchorName: "jsonschema-rs",
                 goal: .speedAtLeast(1.0 / 3)),
        speedRow("JSON Schema isValid, 2 MB GeoJSON vs python-jsonschema (≥ 20×)", parley: timing,
                 anchor: try anchor("python-jsonschema is_valid geojson-2mb"), anchorName: "python-jsonschema",
                 goal: .speedAtLeast(20)),
    ]
}

/// The OpenAPI 3.0 schema against the Twilio description (3.0.1), the 3.1 schema against the OpenAI
/// one (3.1.0), and compiling the 3.1 schema.
func openAPIDocumentRows(
    folder: URL, runs: Int, clock: Clock, anchors: [String: Double], anchor: (String) throws -> Timing
) throws -> [TargetRow] {
    // An anchor the script could not time prints `LABEL unavailable: WHY` instead of a figure: jsonschema-rs's
    // binding takes no integer beyond 64 bits, which the OpenAI description has, so that row is left out.
    func anchorOrUnavailable(_ name: String) -> Timing? { anchors[name].map { Timing(runs: [$0]) } }
    let json = JSONFormat()
    func load(_ path: String) throws -> Value {
        try json.decode(Array(try Data(contentsOf: folder.appendingPathComponent(path)))).resolved()
    }
    let twilio = try load("json/twilio-oai/twilio_api_v2010.json")
    let openAI = try load("json/openai-openapi/openapi.json")
    let schema30 = try JSONSchema(openAPIDocument: .openAPI30)
    let schema31 = try JSONSchema(openAPIDocument: .openAPI31)
    guard try schema30.isValid(twilio), try schema31.isValid(openAI) else {
        throw ReportError("the OpenAPI descriptions do not validate")
    }
    let compilations = 100
    let timings = try timeInterleaved(runs: runs, clock: clock, [
        { consume(try schema30.isValid(twilio)) },
        { consume(try schema31.isValid(openAI)) },
        { for _ in 0..<compilations { consume(try JSONSchema(openAPIDocument: .openAPI31)) } },
    ])
    let compile = Timing(runs: timings[2].runs.map { $0 / Double(compilations) })
    return [
        speedRow("JSON Schema OAS 3.0 schema, Twilio 1.9 MB vs jsonschema-rs (within 3×)", parley: timings[0],
                 anchor: try anchor("jsonschema-rs is_valid openapi30-twilio"), anchorName: "jsonschema-rs",
                 goal: .speedAtLeast(1.0 / 3)),
        speedRow("JSON Schema OAS 3.0 schema, Twilio 1.9 MB vs python-jsonschema (≥ 20×)", parley: timings[0],
                 anchor: try anchor("python-jsonschema is_valid openapi30-twilio"), anchorName: "python-jsonschema",
                 goal: .speedAtLeast(20)),
        speedRow("JSON Schema OAS 3.1 schema, OpenAI 3.4 MB vs python-jsonschema (≥ 20×)", parley: timings[1],
                 anchor: try anchor("python-jsonschema is_valid openapi31-openai"), anchorName: "python-jsonschema",
                 goal: .speedAtLeast(20)),
    ] + (anchorOrUnavailable("jsonschema-rs is_valid openapi31-openai").map {
        [speedRow("JSON Schema OAS 3.1 schema, OpenAI 3.4 MB vs jsonschema-rs (within 3×)", parley: timings[1],
                  anchor: $0, anchorName: "jsonschema-rs", goal: .speedAtLeast(1.0 / 3))]
    } ?? []) + [
        TargetRow(path: "JSON Schema compile the OAS 3.1 schema (≤ 5 ms)", parley: formatTiming(compile),
                  anchor: "jsonschema-rs \(formatTiming(try anchor("jsonschema-rs compile openapi31-schema")))",
                  figure: compile.p50, figureOnBest: compile.best, goal: .timeAtMost(5e-3)),
    ]
}

/// ../shared/corpora/real-world/documents beside the checkout (or under `PARLEY_CORPORA`), if present.
func openAPIDocumentsFolder() -> URL? {
    let corpora = ProcessInfo.processInfo.environment["PARLEY_CORPORA"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../../shared/corpora").standardizedFileURL
    let folder = corpora.appendingPathComponent("real-world/documents")
    guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("index.json").path) else {
        print("corpus 'real-world/documents' not found (../shared/corpora beside the checkout, or PARLEY_CORPORA): "
            + "the OpenAPI document schema rows are left out")
        return nil
    }
    return folder
}

/// The anchors' seconds per validation, by the labels Scripts/schema-anchors.py prints.
func schemaAnchors(python: String, documents: URL?) throws -> [String: Double] {
    let (status, text) = try runCapturingOutput(
        python, [scriptPath("schema-anchors.py")] + (documents.map { ["--documents", $0.path] } ?? []))
    guard status == 0 else { throw ReportError("schema-anchors.py exited \(status)") }
    var anchors: [String: Double] = [:]
    for line in text.split(separator: "\n") where line.hasSuffix(" us") {
        let parts = line.dropLast(3).split(separator: " ", omittingEmptySubsequences: true)
        guard let micros = parts.last.flatMap({ Double($0) }) else { continue }
        anchors[parts.dropLast().joined(separator: " ")] = micros / 1e6
    }
    return anchors
}
