import Foundation
import GeneratedProtobuf
import Parley
import ParleyJSON
import ParleyProtobuf
import PerfWorkloads

// Protocol Buffers (issue #36): decoding a 1 MB message stream (a parley.test.Repeated holding some 9,000
// parley.test.Scalars) dynamically from its descriptor set, to the value tree and on to JSON text, against
// Google's Python protobuf (its upb C core) parsing the same bytes and turning them into the same dictionary
// (ParseFromString + json_format.MessageToDict), timed in a Python child process on the same clock; and the
// dynamic decode against swift-protobuf's generated code for the same schema decoding the same bytes.

/// The test schema's descriptor set and .proto file, which the oracle test keeps in step with protoc.
let protobufResources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../Tests/ParleyProtobufTests/Resources").standardized

/// About 1 MB of parley.test.Repeated: scalars of every kind in each element, from a fixed seed.
func protobufStream(_ format: ProtobufFormat, type: MediaType) throws -> [UInt8] {
    var state: UInt64 = 0x5EED_0036
    func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 11
    }
    var elements: [Value] = []
    let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    var size = 0
    while size < 1 << 20 {
        let element: Value = [
            "fDouble": .float(Double(next() % 1_000_000) / 1000), "fFloat": .float(Double(next() % 10_000) / 8),
            "fInt32": .integer(Int64(next() % 100_000) - 50_000), "fInt64": .string(String(Int64(bitPattern: next()))),
            "fUint32": .integer(Int64(next() % 4_000_000_000)),
            "fSint64": .string(String(Int64(next() % 1_000_000) - 500_000)),
            "fFixed64": .string(String(next())), "fBool": .bool(next() % 2 == 0),
            "fString": .string(words[Int(next() % 8)] + " " + words[Int(next() % 8)] + " \(next() % 1000)"),
            "fBytes": .string(Data((0..<12).map { _ in UInt8(truncatingIfNeeded: next()) }).base64EncodedString()),
            "fColor": .string(["COLOR_RED", "COLOR_GREEN", "COLOR_BLUE"][Int(next() % 3)]),
        ]
        size += try format.encode(element, as: "application/protobuf; messageType=parley.test.Scalars").count + 3
        elements.append(element)
    }
    let numbers = (0..<2000).map { Value.string(String($0 * 7919)) }
    return try format.encode(["rMessage": .array(elements), "rInt64": .array(numbers)], as: type)
}

func protobufTargets(python: String, runs: Int, clock: Clock, folder: URL) throws -> [TargetRow] {
    let set = try Data(contentsOf: protobufResources.appendingPathComponent("oracle_test.binpb"))
    let format = try ProtobufFormat(descriptorSets: [[UInt8](set)])
    let type: MediaType = "application/protobuf; messageType=parley.test.Repeated"
    let bytes = try protobufStream(format, type: type)
    let json = JSONFormat()
    let parley = try timeInterleaved(runs: runs, clock: clock, [
        { consume(try format.decode(bytes, as: type)) },
        { consume(try json.encode(try format.decode(bytes, as: type))) },
        { consume(try Parley_Test_Repeated(serializedBytes: bytes)) },
    ])
    let name = "a \(megabytes(bytes.count)) message stream"
    let file = folder.appendingPathComponent("stream-1mb.binpb")
    try Data(bytes).write(to: file)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Scripts/protobuf-timing.py").standardized.path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script, protobufResources.path, file.path, String(runs), clock == .threadCPU ? "cpu" : "wall"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    var google = Timing(runs: [])
    for line in text.split(whereSeparator: \.isNewline) {
        let parts = line.split(separator: " ")
        if parts.count == 2, parts[0] == "parse_to_dict", let seconds = Double(parts[1]) { google.runs.append(seconds) }
    }
    guard process.terminationStatus == 0, google.runs.count == runs else {
        throw ReportError("protobuf-timing.py exited \(process.terminationStatus) "
                          + "(it needs grpcio-tools and protobuf): \(text)")
    }
    let anchor = "Python protobuf ParseFromString + MessageToDict"
    let generated = "swift-protobuf's generated-code decode of the same bytes (Parley_Test_Repeated(serializedBytes:))"
    return [
        speedRow("Protobuf dynamic decode to Value, \(name) vs \(generated)", parley: parley[0], anchor: parley[2],
                 anchorName: "generated", goal: .speedAtLeast(1.0 / 3)),
        speedRow("Protobuf decode to Value, \(name) vs \(anchor)", parley: parley[0], anchor: google,
                 anchorName: "protobuf", goal: .speedAtLeast(3)),
        speedRow("Protobuf decode to JSON text, \(name) vs \(anchor)", parley: parley[1], anchor: google,
                 anchorName: "protobuf", goal: .speedAtLeast(3)),
    ]
}
