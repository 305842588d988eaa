import BenchmarkInputs
import Foundation
import Parley
import ParleyJSON
import ParleySchema
import PerfWorkloads

// JSON Schema (issue #34): compiled validation of values already in memory, against jsonschema-rs
// (Rust, through its Python binding) and python-jsonschema, which Scripts/schema-anchors.py times
// on the same schemas and documents of the same shape (`make bench-report` pip-installs both).

/// `isValid` on the 100-byte object (a call) and the 1 MiB API document, with the anchors' figures.
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
    let anchors = try schemaAnchors(python: python)
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
    ]
}

/// The anchors' seconds per validation, by the labels Scripts/schema-anchors.py prints.
func schemaAnchors(python: String) throws -> [String: Double] {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Scripts/schema-anchors.py").standardizedFileURL.path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw ReportError("schema-anchors.py exited \(process.terminationStatus)") }
    var anchors: [String: Double] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasSuffix(" us") {
        let parts = line.dropLast(3).split(separator: " ", omittingEmptySubsequences: true)
        guard let micros = parts.last.flatMap({ Double($0) }) else { continue }
        anchors[parts.dropLast().joined(separator: " ")] = micros / 1e6
    }
    return anchors
}
