import Foundation
import ParleyCLI
import ParleyFixtures
import Testing

/// Colour for outcomes and the progress line: the decision (terminal, `NO_COLOR`, `--color`,
/// `--no-color`), the line's text, and `parley check` itself on a pipe and on a pseudo-terminal.
@Suite struct ColorAndProgressTests {
    /// Whether `text` holds an SGR (colour) escape sequence.
    static func hasColourCode(_ text: String) -> Bool {
        text.contains(#/\x1B\[[0-9;]*m/#)
    }

    @Test func autoColoursOnlyATerminalWithoutNoColor() {
        #expect(ColorPolicy.style(choice: .auto, isTerminal: true, environment: [:]) == .colored)
        #expect(ColorPolicy.style(choice: .auto, isTerminal: false, environment: [:]) == .plain)
        #expect(ColorPolicy.style(choice: .auto, isTerminal: true, environment: ["NO_COLOR": "1"]) == .plain)
        #expect(ColorPolicy.style(choice: .auto, isTerminal: true, environment: ["NO_COLOR": "false"]) == .plain,
                "any non-empty value counts")
        #expect(ColorPolicy.style(choice: .auto, isTerminal: true, environment: ["NO_COLOR": ""]) == .colored,
                "an empty NO_COLOR is unset")
        #expect(ColorPolicy.style(choice: .auto, isTerminal: true, environment: ["TERM": "dumb"]) == .plain)
        #expect(ColorPolicy.style(choice: .always, isTerminal: false, environment: ["NO_COLOR": "1"]) == .colored,
                "an explicit --color always wins over NO_COLOR, as no-color.org asks")
        #expect(ColorPolicy.style(choice: .never, isTerminal: true, environment: [:]) == .plain)
    }

    @Test func stylesPaintOnlyWhenColored() {
        #expect(TerminalStyle.colored.failure("FAIL") == "\u{1B}[1;31mFAIL\u{1B}[0m")
        #expect(TerminalStyle.colored.warning("warn") == "\u{1B}[33mwarn\u{1B}[0m")
        #expect(TerminalStyle.colored.success("PASSED") == "\u{1B}[32mPASSED\u{1B}[0m")
        #expect(TerminalStyle.plain.failure("FAIL") == "FAIL")
        #expect(TerminalStyle.colored.failure("") == "")
    }

    @Test func theProgressLineShowsFilesThroughputAndTimeLeft() {
        let line = ProgressLine.text(done: 5, total: 20, bytes: 10_000_000, failed: 0, elapsed: 2, path: "a/b.har",
                                     style: .plain)
        #expect(line == "[5/20] 5.0 MB/s, 0:06 left  a/b.har")
        let failing = ProgressLine.text(done: 5, total: 20, bytes: 0, failed: 2, elapsed: 2, path: "x", style: .colored)
        #expect(failing == "[5/20] 0.0 MB/s, 0:06 left, \u{1B}[1;31m2 failed\u{1B}[0m  \u{1B}[2mx\u{1B}[0m")
        #expect(ProgressLine.text(done: 0, total: 3, bytes: 0, failed: 0, elapsed: 0, path: "x", style: .plain)
            == "[0/3] – MB/s, estimating  x")
        #expect(ProgressLine.text(done: 3, total: 3, bytes: 1_500_000, failed: 0, elapsed: 1, path: "x", style: .plain)
            == "[3/3] 1.5 MB/s, done  x")
        // A recording's path is escaped and keeps its last 40 characters.
        let long = ProgressLine.text(done: 1, total: 2, bytes: 0, failed: 0, elapsed: 1,
                                     path: String(repeating: "d/",
                                                  count: 30) + "\u{1B}]0;title\u{07}.har", style: .plain)
        #expect(!long.contains("\u{1B}"))
        #expect(long.hasSuffix("…" + String(("d/d/d/d/d/d/d/d/d/d/\\u{1B}]0;title\\u{07}.har").suffix(39))))
    }

    @Test func durationsAreMinutesAndSecondsOrHours() {
        #expect(ProgressLine.duration(0.2) == "0:01")
        #expect(ProgressLine.duration(65) == "1:05")
        #expect(ProgressLine.duration(3725) == "1:02:05")
        #expect(ProgressLine.duration(.infinity) == "99:59:59")
    }

    @Test func aPipeGetsNoEscapeCodesAndAlwaysColoursIt() throws {
        let piped = try Self.check(["Fixtures/failing"])
        #expect(piped.status == 2, "not-a-recording.har is unreadable")
        #expect(piped.stdout.contains("FAIL  Fixtures/failing/"))
        #expect(!piped.stdout.contains("\u{1B}") && !piped.stderr.contains("\u{1B}"))

        let always = try Self.check(["Fixtures/failing", "--color", "always"])
        #expect(always.stdout.contains("\u{1B}[1;31mFAIL\u{1B}[0m  Fixtures/failing/"))
        #expect(always.stdout.contains("\u{1B}[1;31mFAILED\u{1B}[0m"))

        let never = try Self.check(["Fixtures/failing", "--color", "always", "--no-color"])
        #expect(never.status == 2)
        #expect(never.stderr.contains("--no-color and --color always exclude each other"))
    }

    /// On a pseudo-terminal (util-linux `script`), outcomes are coloured and the progress line is
    /// drawn; `NO_COLOR` and `--no-color` keep every colour code out, the progress line stays.
    @Test func aTerminalGetsColourUnlessNoColorOrTheFlagSaysNo() throws {
        let coloured = try Self.onTerminal(["check", "Fixtures/failing"])
        #expect(coloured.contains("\u{1B}[1;31mFAIL\u{1B}[0m  Fixtures/failing/"), "\(coloured)")
        #expect(coloured.contains("[6/6] "), "the progress line counts the files")

        let noColor = try Self.onTerminal(["check", "Fixtures/failing"], environment: "NO_COLOR=1")
        #expect(noColor.contains("FAIL  Fixtures/failing/"))
        #expect(noColor.contains("[6/6] "))
        #expect(!Self.hasColourCode(noColor), "\(noColor)")

        let flag = try Self.onTerminal(["check", "Fixtures/failing", "--no-color"])
        #expect(flag.contains("FAIL  Fixtures/failing/"))
        #expect(!Self.hasColourCode(flag))
    }

    static func check(_ arguments: [String]) throws -> ParleyProcess.Result {
        try ParleyProcess.run(["check"] + arguments, directory: CheckCommandTests.root, environment: ["NO_COLOR": nil])
    }

    /// Runs parley with standard output and standard error on a pseudo-terminal; returns what it wrote.
    static func onTerminal(_ arguments: [String], environment: String = "") throws -> String {
        let quoted = ([ParleyProcess.executable.path] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let command = "cd '\(CheckCommandTests.root.path)' && env \(environment) " +
                      "TERM=xterm " + quoted.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
