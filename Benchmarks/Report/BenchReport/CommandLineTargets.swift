import Foundation
import PerfWorkloads

// The command-line batch modes, whole process: the `parley` executable (`make bench-report` passes
// the one `make install` builds; by default the one built next to this one) reads 20,000 lines
// from a file and writes its answers to /dev/null; werkzeug (Python) does the same work for the
// modes it has a counterpart for (Scripts/werkzeug-batch.py).

let batchLines = 20_000

/// The batch inputs, one file per mode, each `batchLines` lines (PerfWorkloads' `batchInput`,
/// which the instruction gate runs too).
func writeBatchInputs(in folder: URL) throws -> [(mode: String, file: URL)] {
    try batchModes.map { mode in
        let file = folder.appendingPathComponent("\(mode)-batch.jsonl")
        try Data(batchInput(mode, lines: batchLines).utf8).write(to: file)
        return (mode, file)
    }
}

/// What one run of a process cost: wall-clock time from spawn to exit, and its CPU time (user + system).
struct ProcessCost {
    var wall: Double
    var cpu: Double
}

/// Runs `executable arguments` with standard input from `input` and standard output to /dev/null
/// (posix_spawn and wait4, so the wall time is the process's own: Foundation's `Process` polls for
/// the exit); fails unless it exits 0.
@discardableResult
func runProcess(_ executable: String, _ arguments: [String], input: URL) throws -> ProcessCost {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input.path, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else { throw ReportError("cannot start \(executable): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    // Exited normally (the low 7 bits are 0) with status 0.
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
        throw ReportError("\(executable) \(arguments.joined(separator: " ")) failed (wait status \(status))")
    }
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return ProcessCost(wall: wall, cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime))
}

/// Whether `python3` imports werkzeug (`make bench` installs it with pip when it does not).
func werkzeugAvailable(python: String) -> Bool {
    (try? runProcess(python, ["-c", "import werkzeug"], input: URL(fileURLWithPath: "/dev/null"))) != nil
}

func commandLineTargets(parley: String, python: String, runs: Int, clock: Clock, folder: URL) throws -> [TargetRow] {
    guard FileManager.default.isExecutableFile(atPath: parley) else {
        throw ReportError("no parley executable at \(parley) (build it: swift build -c release "
                          + "--static-swift-stdlib --product parley, as make install does)")
    }
    let script = scriptPath("werkzeug-batch.py")
    let werkzeug = werkzeugAvailable(python: python)
    var rows: [TargetRow] = []
    for (mode, file) in try writeBatchInputs(in: folder) {
        // werkzeug has best_match for negotiate and parse_options_header for media-type; nothing for match.
        let comparesWerkzeug = werkzeug && mode != "match"
        // Interleaved runs after a warm-up each, as timeInterleaved does, keeping each run's CPU time too.
        var programs: [(String, [String])] = [(parley, [mode, "--batch"])]
        if comparesWerkzeug { programs.append((python, [script, mode])) }
        for (executable, arguments) in programs { try runProcess(executable, arguments, input: file) }
        var t = programs.map { _ in Timing(runs: []) }
        var cpu = programs.map { _ in Timing(runs: []) }
        for _ in 0..<runs {
            for (index, (executable, arguments)) in programs.enumerated() {
                let cost = try runProcess(executable, arguments, input: file)
                t[index].runs.append(cost.wall)
                cpu[index].runs.append(cost.cpu)
            }
        }
        let perLine = 1 / Double(batchLines)
        // The figure: the process's CPU time (user + system: start-up, reading, answering, writing),
        // which the machine's other load does not add to; or its wall time with --wall.
        let figure = clock == .threadCPU ? cpu : t
        let other = clock == .threadCPU
            ? "wall \(formatTiming(t[0], scale: perLine))" : "CPU \(formatTiming(cpu[0], scale: perLine))"
        rows.append(TargetRow(path: "`parley \(mode) --batch`, whole process, 20,000 lines, a line",
                              parley: formatTiming(figure[0], scale: perLine), anchor: "— (\(other))",
                              figure: figure[0].p50 * perLine, goal: .timeAtMost(2e-6)))
        if comparesWerkzeug {
            rows.append(TargetRow(path: "`parley \(mode) --batch` vs werkzeug, whole process, a line",
                                  parley: formatTiming(figure[0], scale: perLine),
                                  anchor: "werkzeug \(formatTiming(figure[1], scale: perLine))",
                                  figure: figure[1].p50 / figure[0].p50, figureOnBest: figure[1].best / figure[0].best,
                                  goal: .speedAtLeast(20)))
        } else if mode != "match" {
            rows.append(TargetRow(path: "`parley \(mode) --batch` vs werkzeug: werkzeug not installed for \(python)",
                                  parley: formatTiming(figure[0], scale: perLine), anchor: "—", figure: .nan,
                                  goal: .speedAtLeast(20)))
        }
    }
    return rows
}
