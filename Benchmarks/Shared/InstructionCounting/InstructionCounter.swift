import CInstructionCounter
import Foundation

/// Counts the instructions one call retires: with the CPU's counter (perf_event_open) where
/// the kernel offers one, otherwise with Valgrind's callgrind (the gate then runs under it).
/// Both gates use it: `LinearityGate` (N against 4N) and `PerfGate` (against committed counts).
public enum InstructionCounter {
    /// The CPU's user-space instruction counter, through this file descriptor.
    case hardware(Int32)
    /// callgrind's counts: each measured call is dumped to a file named from this prefix.
    case callgrind(outputPrefix: String)

    /// The environment variable that tells a run under callgrind where its dumps go.
    static let callgrindOutputVariable = "PARLEY_GATE_CALLGRIND_OUT"

    /// The counter this process can use, or `nil` with the reason when it has none (no
    /// hardware counter and not running under callgrind).
    public static func available() -> (counter: InstructionCounter?, reason: String) {
        if instruction_counter_running_on_valgrind() == 1 {
            guard let prefix = ProcessInfo.processInfo.environment[callgrindOutputVariable] else {
                return (nil, "running under Valgrind without \(callgrindOutputVariable)")
            }
            return (.callgrind(outputPrefix: prefix), "valgrind's callgrind")
        }
        let fd = instruction_counter_open()
        if fd >= 0 { return (.hardware(fd), "the CPU's counter (perf_event_open)") }
        return (nil, "perf_event_open: \(String(cString: strerror(-fd)))")
    }

    /// Replaces this process with itself under `valgrind --tool=callgrind`, with only the
    /// measured calls instrumented. Returns only if Valgrind cannot be started.
    public static func reexecUnderCallgrind() -> String {
        let argv = callgrindInvocation(arguments: Array(CommandLine.arguments.dropFirst())).map { strdup($0) } + [nil]
        execvp("valgrind", argv)
        return "cannot run valgrind: \(String(cString: strerror(errno)))"
    }

    /// The command that runs this executable again under `valgrind --tool=callgrind` with
    /// `arguments`, only the measured calls instrumented; sets the variable that tells the run
    /// where its dumps go.
    public static func callgrindInvocation(arguments: [String]) -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-gate-callgrind-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let prefix = folder.appendingPathComponent("callgrind.out").path
        setenv(callgrindOutputVariable, prefix, 1)
        var executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        // Valgrind 3.19 (Debian 12) cannot read the DWARF 5 the Swift toolchain writes: run a
        // copy without debug information (counts are the same).
        let stripped = folder.appendingPathComponent(strippedName).path
        if run(["strip", "--strip-debug", "-o", stripped, executable]) { executable = stripped }
        return ["valgrind", "--quiet", "--tool=callgrind", "--instr-atstart=no",
                "--callgrind-out-file=\(prefix)", executable] + arguments
    }

    /// Runs a tool to completion; whether it succeeded.
    private static func run(_ command: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// The instructions `call` retires: the fewest over `repetitions` calls with the hardware
    /// counter (other processes and interrupts only add), one call under callgrind (which
    /// counts this process alone; only hash seeds, such as libxml2's, vary it slightly).
    public func count(_ label: String, repetitions: Int = 3, _ call: () throws -> Void) throws -> Int {
        switch self {
        case .hardware(let fd):
            var fewest = Int.max
            for _ in 0..<repetitions {
                let before = instruction_counter_read(fd)
                try call()
                let after = instruction_counter_read(fd)
                fewest = min(fewest, Int(after - before))
            }
            return fewest
        case .callgrind(let prefix):
            instruction_counter_callgrind_begin()
            try call()
            instruction_counter_callgrind_end(label)
            return try Self.takeDump(prefix: prefix)
        }
    }

    /// Removes the stripped copy the run under callgrind started from (callgrind itself writes
    /// a small `<prefix>` file at exit, which stays in the temporary folder).
    public func finish() {
        guard case .callgrind(let prefix) = self else { return }
        let folder = (prefix as NSString).deletingLastPathComponent
        try? FileManager.default.removeItem(atPath: folder + "/" + Self.strippedName)
    }

    /// The name of the copy without debug information that runs under callgrind.
    static let strippedName = "gate-without-debug-info"

    /// Reads and removes the dump callgrind just wrote (kept, for `callgrind_annotate`, when
    /// `PARLEY_GATE_KEEP_DUMPS` is set; PerfGate then prints where it is).
    private static func takeDump(prefix: String) throws -> Int {
        let folder = (prefix as NSString).deletingLastPathComponent
        let name = (prefix as NSString).lastPathComponent
        // callgrind writes `<prefix>` at exit and `<prefix>.<n>` for the n-th dump on request.
        let dumps = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(name + ".") }
        guard dumps.count == 1 else { throw GateError("expected one callgrind dump in \(folder), found \(dumps)") }
        let path = folder + "/" + dumps[0]
        if let keep = ProcessInfo.processInfo.environment["PARLEY_GATE_KEEP_DUMPS"], !keep.isEmpty {
            let kept = folder + "/kept-" + dumps[0]
            try? FileManager.default.moveItem(atPath: path, toPath: kept)
            FileHandle.standardError.write(Data("callgrind dump kept: \(kept)\n".utf8))
            return try instructions(inDump: kept)
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try instructions(inDump: path)
    }

    /// The instructions a callgrind dump holds: the sum of its functions' own (self) costs.
    ///
    /// Not its `summary:` line: after the first dump of a run, that line disagreed with the
    /// functions' costs whenever the counted call ran on other threads (the command-line paths
    /// run as tasks): the same `parley check` call summed to 269.9 M instructions alone and
    /// 270.0 M after the negotiation path, where the second dump's summary said 224.7 M (and
    /// the next dump's wrapped below zero).
    private static func instructions(inDump path: String) throws -> Int {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var total = 0
        var sawCosts = false
        var nextIsCallCost = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("calls=") {
                nextIsCallCost = true  // the next cost line is the call's inclusive cost
                continue
            }
            guard let first = line.utf8.first,
                  (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) || first == UInt8(ascii: "+")
                    || first == UInt8(ascii: "-") || first == UInt8(ascii: "*") else { continue }
            if nextIsCallCost {
                nextIsCallCost = false
                continue
            }
            // `position cost`: with one event (Ir) the cost is the second field.
            let fields = line.split(separator: " ")
            if fields.count >= 2, let cost = Int(fields[1]) {
                total += cost
                sawCosts = true
            }
        }
        guard sawCosts else { throw GateError("no costs in the callgrind dump \(path)") }
        return total
    }
}

/// Why a gate could not measure.
public struct GateError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
