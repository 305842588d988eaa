import Foundation
import GeneratedProtobuf
import Parley
import ParleyJSON
import ParleyProtobuf
import SwiftProtobuf
import PerfWorkloads

// Protocol Buffers (issue #36): decoding a 1 MB message stream (a parley.test.Repeated holding some 9,000
// parley.test.Scalars) dynamically from its descriptor set, to the value tree and on to JSON text, against
// Google's Python protobuf (its upb C core) parsing the same bytes and turning them into the same dictionary
// (ParseFromString + json_format.MessageToDict), timed in a Python child process on the same clock; and the
// dynamic decode against swift-protobuf's generated code for the same schema decoding the same bytes. Both sides
// of that pair do the same end-to-end work in the timed call: read every byte into a value the caller can read
// (the value tree in ProtoJSON form; the generated struct) and free it; the dynamic side also maps to ProtoJSON
// (64-bit integers and bytes as text, enums by name), which the generated struct leaves to its caller.

func protobufTargets(python: String, runs: Int, clock: Clock, folder: URL) throws -> [TargetRow] {
    let format = try protobufTestFormat()
    let type = protobufStreamType
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
    let (status, text) = try runCapturingOutput(python, [scriptPath("protobuf-timing.py"), protobufResources.path,
                                                         file.path, String(runs), clock == .threadCPU ? "cpu" : "wall"])
    var google = Timing(runs: [])
    for line in text.split(whereSeparator: \.isNewline) {
        let parts = line.split(separator: " ")
        if parts.count == 2, parts[0] == "parse_to_dict", let seconds = Double(parts[1]) { google.runs.append(seconds) }
    }
    guard status == 0, google.runs.count == runs else {
        throw ReportError("protobuf-timing.py exited \(status) "
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
