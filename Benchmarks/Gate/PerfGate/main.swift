import BenchmarkInputs
import Foundation
import InstructionCounting
import PerfWorkloads

// The instruction gate (issue #19): each gated path's instructions, counted by Valgrind's
// callgrind, against the committed counts in Gate/instruction-thresholds.txt. Instructions,
// not time: the same binary on the same input retires the same count whatever else the machine
// is doing, so a 5% tolerance catches real regressions and never noise.
//
// The paths (PerfWorkloads' gatedPaths: negotiation, JSON, XML, YAML, property lists, the
// command line) run in a copy of this program under callgrind with only the measured calls
// instrumented, each once after a warm-up call, and each in a copy of its own: a path's count
// never depends on what the paths before it left in the heap (whether `realloc` grows a block in
// place or copies it).
//
// Usage: PerfGate [--thresholds FILE] [--filter TEXT] [--tolerance 5] [--update]
// `make perf-gate` builds it in release and runs it with SWIFT_DETERMINISTIC_HASHING=1.

struct Options {
    var thresholds = "Gate/instruction-thresholds.txt"
    var filter: String?
    var tolerance = 5.0
    var update = false
    var worker = false
    /// The one path a worker counts.
    var path: String?
    var inputs: String?
}

var options = Options()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--thresholds": options.thresholds = arguments.popFirst() ?? options.thresholds
    case "--filter": options.filter = arguments.popFirst()
    case "--tolerance": options.tolerance = arguments.popFirst().flatMap(Double.init) ?? options.tolerance
    case "--update": options.update = true
    case "--worker": options.worker = true
    case "--inputs": options.inputs = arguments.popFirst()
    case "--path": options.path = arguments.popFirst()
    default:
        print("usage: PerfGate [--thresholds FILE] [--filter TEXT] [--tolerance 5] [--update]")
        exit(2)
    }
}

let filter = options.filter
func selected(_ name: String) -> Bool { filter.map { name.contains($0) } ?? true }

// Worker: under callgrind, count the path named by --path and print `name<TAB>instructions per run`.
if options.worker {
    let (available, reason) = InstructionCounter.available()
    guard let counter = available, case .callgrind = counter else {
        FileHandle.standardError.write(Data("PerfGate --worker must run under callgrind (\(reason))\n".utf8))
        exit(2)
    }
    let inputs = URL(fileURLWithPath: options.inputs ?? FileManager.default.currentDirectoryPath)
    for path in gatedPaths where path.name == options.path {
        let call = path.prepare(inputs)
        do {
            try call()  // warm-up: one-time initialisation is not the path's cost
            let total = try counter.count(path.name, call)
            print("\(path.name)\t\(total / path.iterations)")
        } catch {
            print("\(path.name)\terror: \(error)")
        }
        fflush(nil)
    }
    counter.finish()
    exit(0)
}

/// The committed counts in file order: `name count` lines; `#` starts a comment.
func readThresholds(_ path: String) -> [(String, Int)] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    var counts: [(String, Int)] = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        if fields.count == 2, let count = Int(fields[1]) { counts.append((String(fields[0]), count)) }
    }
    return counts
}

/// `committed` with the counts of `measured` put in: a path keeps its place, a new one goes last,
/// and a path this run did not measure (`--filter`) keeps its committed count.
func updatedThresholds(_ committed: [(String, Int)], with measured: [(String, Int)]) -> [(String, Int)] {
    let new = Dictionary(measured, uniquingKeysWith: { _, last in last })
    let known = Set(committed.map(\.0))
    return committed.map { name, count in (name, new[name] ?? count) } + measured.filter { !known.contains($0.0) }
}

func writeThresholds(_ counts: [(String, Int)], to path: String) throws {
    var text = """
    # PerfGate's thresholds: instructions per run of each gated path, counted by callgrind with
    # SWIFT_DETERMINISTIC_HASHING=1 (`make perf-gate`). The gate fails a path that takes more than 5%
    # more. Change these only deliberately, in a commit of their own that says why
    # (`make perf-gate PERF_GATE_FLAGS=--update` rewrites them from a run).

    """
    for (name, count) in counts { text += "\(name) \(count)\n" }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}

// Driver: count everything, compare, print the table.
let started = Date()
var measured: [(String, Result<Int, GateError>)] = []

let inputs = FileManager.default.temporaryDirectory.appendingPathComponent("parley-perf-gate-inputs-\(getpid())")
try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: inputs) }
try prepareCommandLineInputs(in: inputs)
/// The instructions per run of the path `name`, counted by a worker of its own under callgrind.
func count(_ name: String, inputs: URL) throws -> Result<Int, GateError> {
    let worker = Process()
    worker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    worker.arguments = InstructionCounter.callgrindInvocation(
        arguments: ["--worker", "--inputs", inputs.path, "--path", name])
    let pipe = Pipe()
    worker.standardOutput = pipe
    try worker.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    worker.waitUntilExit()
    for line in output.split(separator: "\n") {
        let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
        guard fields.count == 2, fields[0] == name else { continue }
        return Int(fields[1]).map { .success($0) } ?? .failure(GateError(fields[1]))
    }
    return .failure(GateError("its worker exited with \(worker.terminationStatus) without a count"))
}
for path in gatedPaths where selected(path.name) {
    measured.append((path.name, try count(path.name, inputs: inputs)))
}

let committed = readThresholds(options.thresholds)
let thresholds = Dictionary(committed, uniquingKeysWith: { _, last in last })
print("Instructions per run, counted with valgrind's callgrind; the gate fails above the threshold + "
      + "\(options.tolerance)%.\n")
print(column("path", 42) + column("instructions", 16, right: true) + column("threshold", 16, right: true)
      + column("change", 9, right: true) + "  result")
var failures: [String] = []
for (name, result) in measured {
    var row = column(name, 42)
    switch result {
    case .failure(let error):
        failures.append("\(name) (error)")
        row += "  FAIL: \(error)"
    case .success(let count):
        row += column(grouped(count), 16, right: true)
        if let threshold = thresholds[name] {
            let change = (Double(count) / Double(threshold) - 1) * 100
            let verdict = change > options.tolerance ? "  FAIL: slower"
                : change < -options.tolerance ? "  ok (faster: lower the threshold)" : "  ok"
            if change > options.tolerance { failures.append("\(name) (+\(String(format: "%.1f", change))%)") }
            row += column(grouped(threshold), 16, right: true)
                + column(String(format: "%+.1f%%", change), 9, right: true) + verdict
        } else {
            row += column("-", 16, right: true) + column("", 9) + (options.update ? "  new" : "  FAIL: no threshold")
            if !options.update { failures.append("\(name) (no threshold)") }
        }
    }
    print(row)
}
print("\n\(measured.count) paths in \(Int(Date().timeIntervalSince(started))) s.")

if options.update && !failures.isEmpty {
    print("Not updating the thresholds: \(failures.joined(separator: ", ")) failed.")
    exit(1)
} else if options.update {
    let counts = measured.compactMap { name, result in (try? result.get()).map { (name, $0) } }
    try writeThresholds(updatedThresholds(committed, with: counts), to: options.thresholds)
    print("Updated \(counts.count) thresholds in \(options.thresholds); the others are kept.")
} else if failures.isEmpty {
    print("Instruction gate passed: every path within \(options.tolerance)% of its threshold.")
} else {
    print("Instruction gate FAILED for \(failures.count): \(failures.joined(separator: ", ")).")
    exit(1)
}
