import Foundation

/// Runs the built `parley` executable and captures what it prints.
struct ParleyProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `parley` built beside this test bundle.
    static var executable: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("parley")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/"
            && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent(".build/debug/parley")
    }

    /// Runs `parley arguments…` with `input` on standard input, in `directory` when given, with
    /// `environment` added to this process's environment (a `nil` value removes a variable).
    static func run(_ arguments: [String], input: String? = nil, directory: URL? = nil,
                    environment: [String: String?] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        // Write the input and drain standard error on threads of their own while this one reads
        // standard output: a child that answers as it reads fills one pipe while the test would
        // still be writing another, and both would wait forever.
        let helpers = HelperThreads()
        Thread { [inPipe] in
            if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
            try? inPipe.fileHandleForWriting.close()
            helpers.finish()
        }.start()
        Thread { [err] in helpers.finish(errorOutput: err.fileHandleForReading.readDataToEndOfFile()) }.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = helpers.waitForBoth()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// The input writer and the standard error reader of one run: each says when it is done (the
/// reader with what it read), and the caller waits for both under the same lock, so standard
/// error is read only after its thread wrote it.
private final class HelperThreads: @unchecked Sendable {
    private let condition = NSCondition()
    private var finished = 0
    private var errorOutput = Data()

    func finish(errorOutput output: Data? = nil) {
        condition.withLock {
            if let output { errorOutput = output }
            finished += 1
            condition.broadcast()
        }
    }

    /// Waits until both threads are done; returns standard error.
    func waitForBoth() -> Data {
        condition.withLock {
            while finished < 2 { condition.wait() }
            return errorOutput
        }
    }
}
