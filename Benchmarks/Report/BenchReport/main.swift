import Foundation

// `make bench`'s summary (issue #19): every target with its ratio, each pair timed side by side
// in this one process on the benchmark suites' own documents (interleaved runs after a warm-up;
// ratios on the median run, the best run's ratio beside it), then peak memory per decoded byte
// and what a kept value holds, from child processes. One anchor runs in a child process of its
// own: FoundationXML's XMLDocument, which leaks about 11 MB a run of the 1 MB catalogue, so every
// call timed after it here ran on fresh pages and paid their faults (Parley's XML value tree
// 4.3 ms instead of 3.75 ms); in its own process it pays for its own leak (14.2 -> about 17 ms).
//
// Times are CPU time by default: the measuring thread's for the in-process pairs (every call is
// single-threaded), the child's user + system time for the batch processes. On this shared
// machine (2 cores, load above 20 at the time) wall-clock runs of the same call differed by up to
// 6.5x within one run (raw SAX2 on 1 MB: best 1.45 ms, median 9.5 ms), CPU time by at most about
// 20%; --wall times wall clock instead.
//
// Usage: BenchReport [--runs N] [--only json|xml|yaml|cbor|schema|openapi|protobuf|cli|memory ...] [--wall]
//                    [--parley PATH] [--python PATH]
//        BenchReport --memory-worker CASE FILE   (internal: one memory measurement)
//        BenchReport --timing-worker CALL RUNS [--wall]   (internal: an anchor timed in its own process)

struct Options {
    /// Runs per pair; nil: 15 for inputs up to 8 MB, 5 for larger ones and the batches.
    var runs: Int?
    var only: Set<String> = []
    var clock = Clock.threadCPU
    var parley = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("parley").path
    var python = resolveExecutable(ProcessInfo.processInfo.environment["PYTHON"] ?? "python3")

    func runs(forBytes bytes: Int) -> Int { runs ?? (bytes > 8 << 20 ? 5 : 15) }
    func selected(_ section: String) -> Bool { only.isEmpty || only.contains(section) }
}

/// The full path of `name` on PATH (Process needs one).
func resolveExecutable(_ name: String) -> String {
    if name.contains("/") { return name }
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
        let path = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return name
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
        .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        switch argument {
        case "--runs": options.runs = arguments.popFirst().flatMap { Int($0) }
        case "--only": options.only.insert(arguments.popFirst() ?? "")
        case "--wall": options.clock = .wall
        case "--parley": options.parley = arguments.popFirst() ?? options.parley
        case "--python": options.python = resolveExecutable(arguments.popFirst() ?? "python3")
        case "--timing-worker":
            guard let name = arguments.popFirst(), let runs = arguments.popFirst().flatMap({ Int($0) }) else { exit(2) }
            let clock: Clock = arguments.first == "--wall" ? .wall : .threadCPU
            do { try timingWorker(name, runs: runs, clock: clock) } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                exit(1)
            }
        case "--memory-worker":
            guard let name = arguments.popFirst(), let file = arguments.popFirst() else { exit(2) }
            do { try memoryWorker(name, file: file) } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                exit(1)
            }
        default:
            print("usage: BenchReport [--runs N] [--only json|xml|yaml|cbor|schema|openapi|protobuf|cli|memory ...]"
                  + " [--wall] [--parley PATH] [--python PATH]")
            exit(2)
        }
    }
    return options
}

func report(_ options: Options) -> Bool {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-report-\(getpid())")
    do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
        print("cannot create \(folder.path): \(error)")
        return false
    }
    defer { try? FileManager.default.removeItem(at: folder) }

    print("Issue #19 targets, measured side by side in this run (release; load average \(loadAverage()) at the start).")
    print(options.clock == .threadCPU
        ? "Times are CPU time (the measuring thread's; the batch processes' user + system),"
            + " which other load does not add to."
        : "Times are wall-clock time.")
    print("Ratio = the anchor's time / Parley's time (above 1: Parley is faster),"
          + " on the median (p50) of interleaved runs;")
    print("the best run's ratio in parentheses. " + (options.runs.map { "\($0) runs per pair" }
        ?? "15 runs per pair for inputs up to 8 MB, 5 for the 20 MB documents and the 20,000-line batches")
        + ". The full read is the headline JSON figure.")
    print("\"Within 3×\" rows: Parley's time is 1/ratio times the anchor's (0.25× = 4× simdjson's time).")
    if options.selected("cli") { print("The batch rows run \(options.parley).") }
    print("")
    var rows: [TargetRow] = []
    var failed = false
    func section(_ name: String, _ body: () throws -> [TargetRow]) {
        guard options.selected(name) else { return }
        do { rows += try body() } catch {
            print("\(name): \(error)")
            failed = true
        }
    }
    section("json") { try jsonTargets(runs: options.runs(forBytes:), clock: options.clock) }
    section("xml") { try xmlTargets(runs: options.runs(forBytes:), clock: options.clock) }
    section("yaml") { try yamlTargets(runs: options.runs(forBytes:), clock: options.clock) }
    section("cbor") {
        try cborTargets(python: options.python, runs: options.runs(forBytes: 1 << 20), clock: options.clock,
                        folder: folder)
    }
    section("schema") { try schemaTargets(python: options.python, runs: options.runs ?? 15, clock: options.clock) }
    section("openapi") { try openAPITargets(runs: options.runs ?? 15, clock: options.clock) }
    section("protobuf") {
        try protobufTargets(python: options.python, runs: options.runs(forBytes: 1 << 20), clock: options.clock,
                            folder: folder)
    }
    section("cli") {
        try commandLineTargets(parley: options.parley, python: options.python, runs: options.runs ?? 5,
                               clock: options.clock, folder: folder)
    }
    if !rows.isEmpty {
        printTargets(rows)
        let unmet = rows.filter { $0.met == false }
        print("\n\(rows.filter { $0.met == true }.count) of \(rows.filter { $0.met != nil }.count) targets met"
              + (unmet.isEmpty ? "." : "; not met: " + unmet.map(\.path).joined(separator: "; ") + "."))
    }
    if options.selected("memory") {
        do { try memoryFigures(folder: folder) } catch {
            print("memory: \(error)")
            failed = true
        }
    }
    print("\nLoad average at the end: \(loadAverage()).")
    return !failed
}

// Unmet targets are reported, not failed: `make bench` measures, the instruction gate gates.
// A measurement that could not run (a baseline disagreeing with Parley's count, a missing tool) fails.
exit(report(parseOptions()) ? 0 : 1)
