import Foundation

/// Runs `swift package …` for the scaffold's manifest edits.
enum SwiftPackage {
    /// A `swift package` command that failed, with what it printed.
    struct Failed: Error, CustomStringConvertible {
        var arguments: [String]
        var status: Int32
        var output: String
        var description: String {
            "swift package \(arguments.joined(separator: " ")) failed (exit \(status)); "
                + "Package.swift is unchanged:\n\(output)"
                + "(new-format --dry-run prints every command, to run by hand where a plugin cannot run swift package)"
        }
    }

    /// `swift` from the `PATH`, or `nil`.
    static func swiftOnPath(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Runs `swift package --scratch-path scratchPath arguments…` in `directory`; throws
    /// ``Failed`` on a non-zero exit. Output goes to a file rather than a pipe, so a chatty
    /// command can never block on it.
    static func run(_ swift: URL, _ arguments: [String], scratchPath: String, in directory: URL) throws {
        let process = Process()
        process.executableURL = swift
        process.arguments = ["package", "--scratch-path", scratchPath] + arguments
        process.currentDirectoryURL = directory
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("new-format-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try? handle.close()
        guard process.terminationStatus == 0 else {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw Failed(arguments: arguments, status: process.terminationStatus, output: output)
        }
    }
}
