import Foundation
import NIOCore
import Testing

/// `--access-log` and a standard error nobody reads, as a user runs the executable.
extension CommandLineTests {
    @Test func aStandardErrorPipeNobodyReadsNeverStopsTheGateway() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            let process = Process()
            process.executableURL = Self.executable
            process.arguments = ["--listen", "127.0.0.1:0", "--upstream", upstream.absoluteString]
            let output = Pipe(), errors = Pipe()   // errors: never read while requests run
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            let line = try await firstLine(of: output.fileHandleForReading, within: .seconds(20))
            let address = String(line.dropFirst("listening on http://".count))
            // Written synchronously, the access log filled the pipe (64 KiB) after about 300 requests;
            // the loop stops at the first request not answered within 5 s.
            var answered = 0
            for _ in 0..<1500 {
                guard let answer = try? await fetch("http://\(address)/value",
                                                    headers: [("Accept", "application/json")], timeout: .seconds(5)),
                      answer.status == 200 else { break }
                answered += 1
            }
            #expect(answered == 1500)
            process.terminate()
            let logged = errors.fileHandleForReading.readDataToEndOfFile()
            #expect(String(decoding: logged, as: UTF8.self).contains(" info parley-gateway: request "))
        }
    }

    @Test func accessLogOffAndToAFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID()).log")
        defer { try? FileManager.default.removeItem(at: file) }
        try await withUpstream(TestUpstream.router()) { upstream in
            for target in ["off", file.path] {
                let process = Process()
                process.executableURL = Self.executable
                process.arguments = ["--listen", "127.0.0.1:0", "--upstream", upstream.absoluteString,
                                     "--access-log", target]
                let output = Pipe(), errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                try process.run()
                defer { if process.isRunning { process.terminate() } }
                let line = try await firstLine(of: output.fileHandleForReading, within: .seconds(20))
                let address = String(line.dropFirst("listening on http://".count))
                #expect(try await fetch("http://\(address)/value?page=2").status == 200)
                process.terminate()
                process.waitUntilExit()
                let logged = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                #expect(!logged.contains("request"), "\(logged)")
            }
        }
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(#"method=GET path="/value?page=2" status=200"#), "\(text)")
    }

    @Test func anAccessLogFileThatCannotBeOpenedExits2() throws {
        let result = try run(["--upstream", "http://127.0.0.1:9", "--access-log", "/nonexistent/folder/access.log"])
        #expect(result.status == 2)
        #expect(result.errors.contains("--access-log: cannot open '/nonexistent/folder/access.log'"),
                "\(result.errors)")
    }
}
