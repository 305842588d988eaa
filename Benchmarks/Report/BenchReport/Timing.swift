import Foundation

/// Wall-clock times of one measured call over several runs, in seconds.
struct Timing {
    var runs: [Double]

    /// The median run: the figure every ratio uses.
    var p50: Double {
        let sorted = runs.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The fastest run.
    var best: Double { runs.min() ?? .nan }
}

/// What the in-process timings read.
enum Clock: Sendable {
    /// The measuring thread's CPU time (CLOCK_THREAD_CPUTIME_ID): every measured call runs on
    /// this one thread, and time the machine's other load takes from it is not counted.
    case threadCPU
    /// Wall-clock time (CLOCK_MONOTONIC).
    case wall

    func now() -> Double {
        var time = timespec()
        clock_gettime(self == .threadCPU ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Times each call `runs` times on `clock` after one warm-up call each, interleaving them (run 1
/// of every call, then run 2 of every call, …), so a change in the machine's load falls on all alike.
func timeInterleaved(runs: Int, clock: Clock, _ calls: [() throws -> Void]) throws -> [Timing] {
    for call in calls { try call() }
    var timings = calls.map { _ in Timing(runs: []) }
    for _ in 0..<runs {
        for (index, call) in calls.enumerated() {
            let start = clock.now()
            try call()
            timings[index].runs.append(clock.now() - start)
        }
    }
    return timings
}

/// A time at a readable scale: `6.62 ms`, `2.44 µs`, `1.53 s`.
func formatTime(_ seconds: Double) -> String {
    if seconds >= 1 { return String(format: "%.2f s", seconds) }
    if seconds >= 1e-3 {
        return String(format: seconds >= 0.1 ? "%.0f ms" : seconds >= 0.01 ? "%.1f ms" : "%.2f ms", seconds * 1e3)
    }
    return String(format: seconds >= 1e-4 ? "%.0f µs" : "%.2f µs", seconds * 1e6)
}

/// `p50 (best)`.
func formatTiming(_ timing: Timing, scale: Double = 1) -> String {
    "\(formatTime(timing.p50 * scale)) (\(formatTime(timing.best * scale)))"
}

/// Times an anchor that cannot share the measuring process: runs this executable with
/// `--timing-worker NAME RUNS` (see ``timingWorker(_:runs:clock:)``), which makes its own input,
/// warms up once and prints one time per run.
func timeInChild(_ name: String, runs: Int, clock: Clock) throws -> Timing {
    let (status, text) = try runSelf(["--timing-worker", name, String(runs)] + (clock == .wall ? ["--wall"] : []))
    let times = text.split(whereSeparator: \.isNewline).compactMap { Double($0) }
    guard status == 0, times.count == runs else {
        throw ReportError("timing worker \(name) exited \(status): \(text)")
    }
    return Timing(runs: times)
}

/// Runs this executable with `arguments` (a worker mode) and returns its exit status and output.
func runSelf(_ arguments: [String]) throws -> (status: Int32, output: String) {
    try runCapturingOutput(URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path, arguments)
}

/// The path of `name` in Benchmarks/Scripts (the Python anchors and helpers).
func scriptPath(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Scripts/\(name)").standardized.path
}

/// Runs `executable` with `arguments` and returns its exit status and standard output.
func runCapturingOutput(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

/// The worker side of ``timeInChild(_:runs:clock:)``: times the call named `name` (one of
/// ``childTimedCalls()``) `runs` times after a warm-up, printing each time in seconds.
func timingWorker(_ name: String, runs: Int, clock: Clock) throws -> Never {
    guard let call = try childTimedCalls()[name] else { throw ReportError("no timed call \(name)") }
    let timing = try timeInterleaved(runs: runs, clock: clock, [call])[0]
    for time in timing.runs { print(time) }
    exit(0)
}
