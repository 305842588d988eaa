import Foundation
import Testing

/// The `parley-gateway` executable, run as a user runs it.
@Suite(.timeLimit(.minutes(2))) struct CommandLineTests {
    /// The built executable, beside this test bundle.
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("parley-gateway")

    /// Runs the executable with `arguments`, to its end (at most 30 s).
    func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (process.terminationStatus,
                String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test func itPrintsWhereItListensServesAndExits0OnSIGTERMAfterTheRequestInFlight() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            let process = Process()
            process.executableURL = Self.executable
            process.arguments = ["--listen", "127.0.0.1:0", "--upstream", upstream.absoluteString,
                                 "--log-level", "error"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            let line = try await firstLine(of: output.fileHandleForReading, within: .seconds(20))
            let prefix = "listening on http://127.0.0.1:"
            #expect(line.hasPrefix(prefix), "\(line)")
            let address = String(line.dropFirst("listening on http://".count))

            let answer = try await fetch("http://\(address)/value", headers: [("Accept", "application/yaml")])
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "application/yaml; charset=utf-8")

            // A request in flight when SIGTERM arrives is still answered; then the process exits 0.
            async let slow = fetch("http://\(address)/stall/1")
            try await Task.sleep(for: .milliseconds(300))
            process.terminate()
            let late = try await slow
            #expect(late.status == 200)
            #expect(late.text == "late")
            let deadline = ContinuousClock.now + .seconds(20)
            while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(!process.isRunning)
            #expect(process.terminationStatus == 0)
        }
    }

    /// SIGTERM with a client that reads nothing of a long answer: the process exits 0 at the drain
    /// timeout, logging the connection it cut.
    @Test func onSIGTERMItExitsAtTheDrainTimeoutWhenAClientHoldsItsConnection() async throws {
        try await ProbeUpstream.with { upstream in
            let process = Process()
            process.executableURL = Self.executable
            process.arguments = ["--listen", "127.0.0.1:0", "--upstream", upstream.url.absoluteString,
                                 "--log-level", "warning", "--access-log", "off", "--drain-timeout", "1"]
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            let line = try await firstLine(of: output.fileHandleForReading, within: .seconds(20))
            let port = try #require(Int(line.split(separator: ":").last ?? ""), "\(line)")
            let reader = try await RawConnection.open(port: port, reading: false)
            try await reader.send("GET /big/\(1 << 30) HTTP/1.1\r\nHost: gateway\r\n\r\n")
            #expect(await eventually { upstream.sent > 0 })
            let terminated = ContinuousClock.now
            process.terminate()
            let deadline = terminated + .seconds(5)
            while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(!process.isRunning, "still running 5 s after SIGTERM with --drain-timeout 1")
            #expect(ContinuousClock.now - terminated >= .milliseconds(900))
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let logged = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(logged.contains("drain timeout") && logged.contains("connections=1"), "\(logged)")
            await reader.close()
        }
    }

    @Test(arguments: [
        ([], "--upstream URL is required"),
        (["--upstream", "http://127.0.0.1:9", "--drain-timeout", "0"], "--drain-timeout"),
        (["--upstream", "ftp://example.org"], "is not an http or https URL"),
        (["--upstream", "http://127.0.0.1:9", "--listen", "8080"], "is not HOST:PORT"),
        (["--upstream", "http://127.0.0.1:9", "--upstream-timeout", "0"], "--upstream-timeout"),
        (["--upstream", "http://127.0.0.1:9", "--no-such-flag"], "no-such-flag"),
        (["--config", "/nonexistent/gateway.yaml"], "cannot read"),
        (["--upstream", "http://127.0.0.1:9", "--record", "/proc/parley-recordings"],
         "--record: cannot create the folder"),
        (["--upstream", "http://127.0.0.1:9", "--replay", "/nonexistent/recordings"], "--replay: no folder or file"),
        (["--upstream", "http://127.0.0.1:9", "--openapi", "/nonexistent/openapi.yaml"],
         "the OpenAPI document '/nonexistent/openapi.yaml' does not load"),
    ])
    func badFlagsExit2SayingWhy(arguments: [String], message: String) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(result.errors.contains(message), "\(result.errors)")
    }

    @Test func aBadConfigurationFileExits2NamingTheFileAndKey() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-\(UUID()).yaml")
        try Data("upstream: http://127.0.0.1:9\nroutes:\n  - prefix: nope\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run(["--config", file.path])
        #expect(result.status == 2)
        #expect(result.errors.contains(file.path))
        #expect(result.errors.contains("routes[0].prefix"))
    }

    @Test func helpShowsTheExamples() throws {
        let result = try run(["--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("parley-gateway --listen 127.0.0.1:8080 --upstream http://127.0.0.1:9000"))
        #expect(result.output.contains("--record <DIR>"))
        #expect(result.output.contains("--openapi <SPEC>"))
        #expect(result.output.contains("--drain-timeout <SECONDS>"))
    }

    /// The first line `handle` gives, waiting at most `limit`.
    func firstLine(of handle: FileHandle, within limit: Duration) async throws -> String {
        try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                var bytes: [UInt8] = []
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    bytes += chunk
                    if let end = bytes.firstIndex(of: 10) { return String(decoding: bytes[..<end], as: UTF8.self) }
                }
                return String(decoding: bytes, as: UTF8.self)
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first ?? ""
        }
    }
}
