import Foundation
import InstructionCounting
import LinearityWorkloads

// The linearity gate (issue #22): every workload runs at N and 4N; the gate fails when 4× the
// input costs more than 5× the instructions. Instruction counts, not times: they do not
// depend on the machine's load, so the ratio is stable enough to gate on.
//
// Usage: LinearityGate [--filter TEXT] [--max-ratio 5] [--list]
// (`make linearity-gate` builds it in release and runs it.)

let factor = 4
var maxRatio = 5.0
var filter: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--filter": filter = arguments.popFirst()
    case "--max-ratio": maxRatio = arguments.popFirst().flatMap(Double.init) ?? maxRatio
    case "--list":
        for workload in allWorkloads { print(workload.name) }
        exit(0)
    default:
        print("usage: LinearityGate [--filter TEXT] [--max-ratio \(maxRatio)] [--list]")
        exit(2)
    }
}

let (available, reason) = InstructionCounter.available()
guard let counter = available else {
    print("No instruction counter (\(reason)); running again under valgrind --tool=callgrind.")
    fflush(nil)  // before exec replaces the process and its buffers
    print(InstructionCounter.reexecUnderCallgrind())
    exit(2)
}

let workloads = allWorkloads.filter { workload in filter.map { workload.name.contains($0) } ?? true }
print("Instructions per call at N and \(factor)N, counted with \(reason); the gate fails above \(maxRatio)×.\n")
print(column("workload", 34) + column("unit", 15) + column("N", 6, right: true)
      + column("instructions N", 17, right: true) + column("instructions 4N", 17, right: true)
      + column("ratio", 8, right: true) + "  result")

var failures: [String] = []
let started = Date()
for workload in workloads {
    var row = column(workload.name, 34) + column(workload.unit, 15) + column(String(workload.count), 6, right: true)
    do {
        var counts: [Int] = []
        for count in [workload.count, factor * workload.count] {
            let call = workload.prepare(count)
            try call()  // warm-up: one-time initialisation is not the input's cost
            counts.append(try counter.count("\(workload.name)-\(count)", call))
        }
        let ratio = Double(counts[1]) / Double(max(counts[0], 1))
        let passed = ratio <= maxRatio
        let verdict = passed ? "  ok" : workload.knownBound.map { "  bounded: \($0)" } ?? "  FAIL: superlinear"
        if !passed, workload.knownBound == nil {
            failures.append("\(workload.name) (\(String(format: "%.2f", ratio))×)")
        }
        row += column(grouped(counts[0]), 17, right: true) + column(grouped(counts[1]), 17, right: true)
            + column(String(format: "%.2f", ratio), 8, right: true) + verdict
    } catch {
        failures.append("\(workload.name) (error)")
        row += "  FAIL: \(error)"
    }
    print(row)
    fflush(nil)  // the table shows as it grows, also through a pipe
}

counter.finish()
print("\n\(workloads.count) workloads in \(Int(Date().timeIntervalSince(started))) s.")
if failures.isEmpty {
    print("Linearity gate passed: every ratio is at most \(maxRatio), but for the bounded ones named above.")
} else {
    print("Linearity gate FAILED for \(failures.count): \(failures.joined(separator: ", ")).")
    exit(1)
}
