import CInstructionCounter
import Foundation

/// Counts the instructions one call retires: with the CPU's counter (perf_event_open) where
/// the kernel offers one, otherwise with Valgrind's callgrind (the gate then runs under it).
enum InstructionCounter {
    /// The CPU's user-space instruction counter, through this file descriptor.
    case hardware(Int32)
    /// callgrind's counts: each measured call is dumped to a file named from this prefix.
    case callgrind(outputPrefix: String)

    /// The environment variable that tells a run under callgrind where its dumps go.
    static let callgrindOutputVariable = "PARLEY_LINEARITY_CALLGRIND_OUT"

    /// The counter this process can use, or `nil` with the reason when it has none (no
    /// hardware counter and not running under callgrind).
    static func available() -> (counter: InstructionCounter?, reason: String) {
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
    static func reexecUnderCallgrind() -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-linearity-callgrind-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let prefix = folder.appendingPathComponent("callgrind.out").path
        setenv(callgrindOutputVariable, prefix, 1)
        var executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        // Valgrind 3.19 (Debian 12) cannot read the DWARF 5 the Swift toolchain writes: run a
        // copy without debug information (counts are the same).
        let stripped = folder.appendingPathComponent("LinearityGate").path
        let strip = Process()
        strip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        strip.arguments = ["strip", "--strip-debug", "-o", stripped, executable]
        if (try? strip.run()) != nil {
            strip.waitUntilExit()
            if strip.terminationStatus == 0 { executable = stripped }
        }
        let arguments = ["valgrind", "--quiet", "--tool=callgrind", "--instr-atstart=no",
                         "--callgrind-out-file=\(prefix)", executable] + CommandLine.arguments.dropFirst()
        let argv = arguments.map { strdup($0) } + [nil]
        execvp("valgrind", argv)
        return "cannot run valgrind: \(String(cString: strerror(errno)))"
    }

    /// The instructions `call` retires: the fewest over `repetitions` calls with the hardware
    /// counter (other processes and interrupts only add), one call under callgrind (which
    /// counts this process alone; only hash seeds, such as libxml2's, vary it slightly).
    func count(_ label: String, repetitions: Int = 3, _ call: () throws -> Void) throws -> Int {
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
    func finish() {
        guard case .callgrind(let prefix) = self else { return }
        let folder = (prefix as NSString).deletingLastPathComponent
        try? FileManager.default.removeItem(atPath: folder + "/LinearityGate")
    }

    /// Reads and removes the dump callgrind just wrote: its `summary:` (or `totals:`) line.
    private static func takeDump(prefix: String) throws -> Int {
        let folder = (prefix as NSString).deletingLastPathComponent
        let name = (prefix as NSString).lastPathComponent
        // callgrind writes `<prefix>` at exit and `<prefix>.<n>` for the n-th dump on request.
        let dumps = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(name + ".") }
        guard dumps.count == 1 else { throw GateError("expected one callgrind dump in \(folder), found \(dumps)") }
        let path = folder + "/" + dumps[0]
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
            if let count = Int(line.split(separator: " ").last ?? "") { return count }
        }
        throw GateError("no summary line in the callgrind dump \(path)")
    }
}

struct GateError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
