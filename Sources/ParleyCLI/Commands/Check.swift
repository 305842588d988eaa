import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Parley
import ParleyHTTP
import ParleyFixtures

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check recorded exchanges: every response decodes as its Content-Type claims.",
        discussion: """
        Reads HAR files, Ruby vcr / vcrpy / go-vcr cassettes and raw HTTP responses (`curl -i` \
        output), detected by content, and checks every recorded response: status (with --status), \
        Content-Type, Content-Encoding, charset, then the registered decoder with its limits. \
        Files in folders that are not recordings are skipped; a file named explicitly must be one. \
        A sidecar `NAME.parley.json` pins what responses must decode to (typed JSON, exact or \
        subset); --update-snapshots writes them, and nothing else writes into recording folders.

        Every response runs through the same response pipeline as the client's, so a recording \
        passes exactly when the app's own client would decode it. A finding that stops decoding \
        (no Content-Type, a type no linked format decodes, an unsupported Content-Encoding or \
        charset) is an error; lower it with --severity, e.g. unknown-content-type=warning for \
        browser exports full of fonts. A response whose body the recording left out (HAR exports \
        often do for images) is noted and not checked.

        With --openapi SPEC (an OpenAPI 3.0 or 3.1 document, JSON or YAML, $refs to local files \
        followed), every exchange is also checked against its operation: the server base path, \
        path template and method (contract-no-operation), the request's parameters and body \
        (contract-request, readOnly refused), the status (contract-status: 2XX ranges and \
        default count), the Content-Type (contract-content-type, matched as negotiation does), \
        response headers (contract-header) and the body against its schema in whatever linked \
        format decodes it (contract-body, writeOnly refused; one finding per violation with its \
        instance and schema paths). A type declared without a schema, or that no linked format \
        decodes, is a contract-unchecked warning: nothing passes unchecked silently.

        Without a path, the current folder is checked. Exit codes: 0 every exchange passed \
        (warnings allowed unless --strict), 1 a check failed, 2 usage error or a recording that \
        could not be read (the report still lists it, every other file is checked, and a last \
        line names the unreadable files).

        Examples:
          parley check Fixtures/recorded
          parley check recordings/ --status 2xx,304 --strict
          parley check recordings/ --report junit --output check.xml
          parley check recordings/ --report html --output report.html
          parley check huge-corpus/ --shard 2/8 --stats
          parley check recordings/ --color always | less -R
          parley check recordings/ --openapi openapi.yaml
        """)

    @Argument(help: "Files or folders of recordings (default: the current folder).")
    var paths: [String] = ["."]

    @Option(help: "Report format: text, json (JSON Lines), junit or html (one self-contained page; use with --output).")
    var report: String = "text"

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(help: "Acceptable statuses, e.g. 2xx,304 or 200-299 (default: any).")
    var status: String?

    @Flag(help: "Warnings fail the check too.")
    var strict = false

    @Option(
        help: "Change a finding's severity: KIND=error|warning|note (repeatable), e.g. unknown-content-type=warning.")
    var severity: [String] = []

    @Flag(name: .customLong("accept-mislabelled"),
          help: "Pass (with a warning) a body that fails as labelled but decodes as what it really is.")
    var acceptMislabelled = false

    @Flag(name: .customLong("update-snapshots"), help: "Write snapshot sidecars from the decoded values.")
    var updateSnapshots = false

    @Option(help: "Check only shard I of N (1-based), e.g. 2/8; files are split by a hash of their path.")
    var shard: String?

    @Option(help: "Files checked at once (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "Print files, exchanges, bytes, time and throughput to standard error.")
    var stats = false

    @Flag(help: "Also list notes and skipped files.")
    var verbose = false

    @Option(name: .customLong("descriptor-set"),
            help: "A protobuf FileDescriptorSet: protobuf bodies (with messageType) are read (repeatable).")
    var descriptorSets: [String] = []

    @Option(help: "Also check every exchange against this OpenAPI 3.0/3.1 document (JSON or YAML).")
    var openapi: String?

    @OptionGroup var colors: ColorOptions

    func run() async throws {
        guard let format = ReportFormat(rawValue: report) else {
            throw ValidationError("--report must be text, json, junit or html, not '\(report)'")
        }
        let registry = try CommandEnvironment.registry(descriptorSets: descriptorSets).registry
        var options = CheckOptions(registry: registry, isStrict: strict,
                                   acceptsMislabelledBodies: acceptMislabelled)
        options.keepsDetails = format.needsDetails
        if let openapi {
            options.contractCheck = try ContractBridge.contractCheck(path: openapi, registry: registry)
        }
        if let status {
            guard let filter = StatusFilter(status) else { throw ValidationError("invalid --status '\(status)'") }
            options.acceptableStatuses = filter
        }
        for item in severity {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let kind = Finding.Kind(rawValue: parts[0]),
                  let level = ["error": Severity.error, "warning": .warning, "note": .note][parts[1]] else {
                let kinds = Finding.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("invalid --severity '\(item)': use KIND=error|warning|note with KIND one of " +
                                      "\(kinds)")
            }
            options.severities[kind] = level
        }
        var files: [FixtureFile]
        do { files = try FixtureFiles.discover(paths) } catch { throw InputError(message: error.description) }
        if let shard {
            let parts = shard.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
                throw ValidationError("--shard must be I/N with 1 ≤ I ≤ N, not '\(shard)'")
            }
            files = FixtureFiles.shard(files, index: parts[0], of: parts[1])
        }

        let sink = try ReportSink(path: output)
        let progress = ProgressLine(total: files.count, enabled: isatty(2) == 1, style: colors.style(forDescriptor: 2))
        let run = ReportRun(commandLine: ["parley"] + CommandLine.arguments.dropFirst())
        var reporter = format.reporter(strict: strict, verbose: verbose,
                                       style: output == nil ? colors.style(forDescriptor: 1) : .plain,
                                       run: run) { line in
            progress.clear()
            sink.write(line)
        }
        let checker = FixtureChecker(options: options, snapshots: updateSnapshots ? .update : .compare)
        var summary = CheckSummary()
        let started = Date()
        var done = 0
        var unreadable: [String] = []
        await checker.run(files, concurrency: jobs ?? ProcessInfo.processInfo.activeProcessorCount) { check in
            done += 1
            if check.readError != nil { unreadable.append(check.path) }
            summary.add(check)
            progress.update(done, summary: summary, path: check.path)
            reporter.record(check)
        }
        progress.clear()
        reporter.finish(summary)
        if stats {
            let seconds = Date().timeIntervalSince(started)
            let megabytes = Double(summary.bytes) / 1_000_000
            printError(cFormat("stats: %ld files (%ld recordings), %ld exchanges, %.1f MB in %.2f s: %.1f MB/s, %.0f " +
                               "exchanges/s",
                              files.count, summary.recordings, summary.exchanges, megabytes, seconds,
                              megabytes / max(seconds, 1e-9), Double(summary.exchanges) / max(seconds, 1e-9)))
        }
        if !unreadable.isEmpty {
            // Exit 2 reads as a usage error in CI logs: say what it means here.
            let line = "\(unreadable.count) file\(unreadable.count == 1 ? "" : "s") could not be read: "
                + unreadable.map { TerminalText.escaped($0) }.joined(separator: ", ")
                + "; every other file was checked (exit 2)"
            if format == .text { sink.write(line) } else { printError("parley: " + line) }
            throw ExitCode.usage
        }
        if summary.fails(strict: strict) { throw ExitCode.checkFailed }
    }
}

/// Where the report goes: standard output or a file, written as it is produced.
private final class ReportSink: @unchecked Sendable {
    private let descriptor: Int32

    /// Opens `path` as a shell's `>` does: created or truncated in place, through a symbolic link,
    /// and a device such as `/dev/null` stays a device. (`FileManager.createFile` writes a new
    /// file and renames it over the path: run as root, it replaced `/dev/null` with a file.)
    init(path: String?) throws {
        guard let path else { descriptor = STDOUT_FILENO; return }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw InputError(message: "cannot write '\(path)': \(systemErrorText(errno))")
        }
        self.descriptor = descriptor
    }

    func write(_ line: String) { Descriptors.writeAll(line + "\n", to: descriptor) }

    deinit {
        if descriptor != STDOUT_FILENO { close(descriptor) }
    }
}
