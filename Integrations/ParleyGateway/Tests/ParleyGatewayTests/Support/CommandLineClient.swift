import Foundation

/// A command-line HTTP client (curl, nghttp) run as a user runs it against a live gateway.
struct CommandLineClient {
    /// What a run printed and how it ended.
    struct Run: Sendable {
        var status: Int32
        var output: String
        var errors: String
    }

    let executable: URL

    static let curl = CommandLineClient(executable: URL(fileURLWithPath: "/usr/bin/curl"))
    static let nghttp = CommandLineClient(executable: URL(fileURLWithPath: "/usr/bin/nghttp"))

    /// Whether the client is installed (Debian's curl and nghttp2-client).
    var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    /// Runs the client with `arguments` to its end, at most `limit` (then it is terminated); its
    /// output goes to files, so a long one cannot fill a pipe and stall it.
    func run(_ arguments: [String], within limit: Duration = .seconds(20)) async throws -> Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputURL = folder.appendingPathComponent("output"), errorsURL = folder.appendingPathComponent("errors")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL), errors = try FileHandle(forWritingTo: errorsURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try output.close()
        try errors.close()
        return Run(status: process.terminationStatus,
                   output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
                   errors: String(decoding: try Data(contentsOf: errorsURL), as: UTF8.self))
    }
}
