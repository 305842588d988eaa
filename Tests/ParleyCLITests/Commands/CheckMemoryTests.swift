import Foundation
import Testing

/// `parley check` releases each decoded body once its exchange is reported: a small HAR whose
/// bodies are stacked gzip (each tens of MB decoded) peaks at the memory of the jobs in flight,
/// not of every entry in the file.
@Suite struct CheckMemoryTests {
    /// 32 MiB of zeros, gzipped twice, in base64: a few hundred bytes.
    static func stackedGzip() throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "head -c 33554432 /dev/zero | gzip -9 | gzip -9 | base64 -w0"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func har(entries: Int, body: String) -> String {
        let entry = """
            {"startedDateTime": "2026-11-20T10:00:00.000Z", "time": 1,
             "request": {"method": "GET", "url": "https://example.org/big", "httpVersion": "HTTP/1.1", "headers": [],
                         "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                          "headers": [{"name": "Content-Type", "value": "text/plain"},
                                      {"name": "Content-Encoding", "value": "gzip, gzip"}],
                          "cookies": [], "content": {"size": 33554432, "mimeType": "text/plain", "encoding": "base64",
                                                     "text": "\(body)"},
                          "redirectURL": "", "headersSize": -1, "bodySize": -1},
             "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}
            """
        return "{\"log\": {\"version\": \"1.2\", \"creator\": {\"name\": \"test\", \"version\": \"1\"}, \"entries\": ["
            + Array(repeating: entry, count: entries).joined(separator: ",\n") + "]}}"
    }

    /// Runs `parley arguments…` and returns its exit status and its own peak resident set in MiB:
    /// the kernel's high-water mark of its address space (`VmHWM`), read while it runs. (`rusage`
    /// would not do: a child spawned with `vfork` semantics inherits its parent's peak.)
    static func runMeasuringPeak(_ arguments: [String]) throws -> (status: Int32, peakMebibytes: Int) {
        let process = Process()
        process.executableURL = ParleyProcess.executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var peakKibibytes = 0
        while process.isRunning {
            if let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
               let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kibibytes = Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces)
                                       .replacingOccurrences(of: " kB", with: "")) {
                peakKibibytes = max(peakKibibytes, kibibytes)
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        return (process.terminationStatus, peakKibibytes / 1024)
    }

    @Test func peakMemoryIsBoundedByTheJobsNotTheEntries() throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-bombs-\(UUID().uuidString).har")
        try Self.har(entries: 24, body: try Self.stackedGzip()).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        for report in ["text", "html"] {
            let (status, peak) = try Self.runMeasuringPeak(["check", file.path, "--jobs", "2", "--report", report,
                                                            "--output", "/dev/null"])
            #expect(status == 0)
            // 24 entries of 32 MiB each: all kept would be over 768 MiB of text alone.
            #expect(peak < 400, "peak resident set of the \(report) check: \(peak) MiB")
        }
    }
}
