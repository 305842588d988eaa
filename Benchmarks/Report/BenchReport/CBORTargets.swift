import BenchmarkInputs
import Foundation
import Parley
import ParleyCBOR
import ParleyJSON
import ParleyMessagePack
import PerfWorkloads

// CBOR (issue #36) on the values of the 1 MB API document: Parley's decode and encode against
// Python cbor2's C extension on the same bytes (timed in a Python child process, one call at a time
// on the same clock), and Parley's CBOR decode against its own MessagePack decode of the same values.

/// Whether `python` imports cbor2's C extension (`make test` installs cbor2 with pip).
func cbor2Available(python: String) -> Bool {
    (try? runProcess(python, ["-c", "import cbor2._cbor2"], input: URL(fileURLWithPath: "/dev/null"))) != nil
}

func cborTargets(python: String, runs: Int, clock: Clock, folder: URL) throws -> [TargetRow] {
    let cbor = CBORFormat(), msgpack = MessagePackFormat()
    // The values fully built once (JSON defers its objects), so encoding times encoding alone.
    let value = try cbor.decode(try cbor.encode(try JSONFormat().decode(makeAPIDocument(size: 1 << 20, seed: 1))))
    let cborBytes = try cbor.encode(value)
    let msgpackBytes = try msgpack.encode(value)
    guard try msgpack.decode(msgpackBytes) == value, try cbor.decode(cborBytes) == value else {
        throw ReportError("CBOR: the CBOR and MessagePack encodings of the API values do not decode to the same values")
    }
    let parley = try timeInterleaved(runs: runs, clock: clock, [
        { consume(try cbor.decode(cborBytes)) },
        { consume(try cbor.encode(value)) },
        { consume(try msgpack.decode(msgpackBytes)) },
    ])
    let name = "\(megabytes(cborBytes.count)) CBOR of the 1 MB API document"
    let sameValues = "Parley's MessagePack decode of the same values (\(megabytes(msgpackBytes.count)))"
    var rows = [speedRow("CBOR decode, \(name) vs \(sameValues)", parley: parley[0], anchor: parley[2],
                         anchorName: "MessagePack", goal: .speedAtLeast(0.5))]
    guard cbor2Available(python: python) else {
        for path in ["decode", "encode"] {
            rows.append(TargetRow(path: "CBOR \(path) vs cbor2: cbor2's C extension not installed for \(python)",
                                  parley: formatTiming(parley[path == "decode" ? 0 : 1]), anchor: "—", figure: .nan,
                                  goal: .speedAtLeast(path == "decode" ? 5 : 3)))
        }
        return rows
    }
    let file = folder.appendingPathComponent("api-1mb.cbor")
    try Data(cborBytes).write(to: file)
    let (status, text) = try runCapturingOutput(
        python, [scriptPath("cbor2-timing.py"), file.path, String(runs), clock == .threadCPU ? "cpu" : "wall"])
    var cbor2 = ["loads": Timing(runs: []), "dumps": Timing(runs: [])]
    for line in text.split(whereSeparator: \.isNewline) {
        let parts = line.split(separator: " ")
        if parts.count == 2, let seconds = Double(parts[1]) { cbor2[String(parts[0])]?.runs.append(seconds) }
    }
    guard status == 0, cbor2["loads"]!.runs.count == runs, cbor2["dumps"]!.runs.count == runs else {
        throw ReportError("cbor2-timing.py exited \(status): \(text)")
    }
    rows.append(speedRow("CBOR decode, \(name) vs cbor2.loads (C extension)", parley: parley[0],
                         anchor: cbor2["loads"]!, anchorName: "cbor2", goal: .speedAtLeast(5)))
    rows.append(speedRow("CBOR encode, \(name) vs cbor2.dumps (C extension)", parley: parley[1],
                         anchor: cbor2["dumps"]!, anchorName: "cbor2", goal: .speedAtLeast(3)))
    return rows
}
