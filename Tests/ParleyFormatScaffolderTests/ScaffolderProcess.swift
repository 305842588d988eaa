import Foundation

/// Runs programs for the scaffold tests: the built `ParleyFormatScaffolder`, and `swift` itself.
enum ScaffolderProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var timedOut: Bool
    }

    /// The package root of this checkout.
    static let packageRoot: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    /// The `ParleyFormatScaffolder` built beside this test bundle.
    static var scaffolder: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("ParleyFormatScaffolder")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return packageRoot.appendingPathComponent(".build/debug/ParleyFormatScaffolder")
    }

    /// `swift` from `PATH`, or `nil`.
    static var swift: URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Runs `executable arguments…`, killing it after `seconds`.
    static func run(_ executable: URL, _ arguments: [String], directory: URL? = nil,
                    seconds: Double = 60) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let outFile = FileManager.default.temporaryDirectory.appendingPathComponent("scaffold-\(UUID().uuidString).out")
        let errFile = outFile.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outFile)
            try? FileManager.default.removeItem(at: errFile)
        }
        process.standardOutput = try FileHandle(forWritingTo: outFile)
        process.standardError = try FileHandle(forWritingTo: errFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                process.terminate()
                process.waitUntilExit()
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: (try? String(contentsOf: outFile, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: errFile, encoding: .utf8)) ?? "",
                      timedOut: timedOut)
    }

    /// Runs the scaffolder on `package` with `arguments`.
    static func scaffold(_ package: URL, _ arguments: [String]) throws -> Result {
        try run(scaffolder, ["--package-dir", package.path] + arguments)
    }
}

/// A small package that depends on Parley by path, in a fresh temporary folder.
struct TemporaryPackage {
    let directory: URL

    static let consumerManifest = """
    // swift-tools-version: 6.1
    import PackageDescription

    let package = Package(
        name: "consumer",
        platforms: [.macOS(.v15)],
        dependencies: [.package(name: "parley", path: "PARLEY_PATH")],
        targets: [
            .executableTarget(name: "ShowFormats",
                              dependencies: [.product(name: "Parley", package: "parley") /* scaffold:parley */],
                              plugins: [.plugin(name: "ParleyFormatRegistration", package: "parley")]),
            // scaffold:targets
        ],
        swiftLanguageModes: [.v6]
    )

    """

    /// Creates the package with `manifest` (`PARLEY_PATH` replaced by this checkout's root).
    init(manifest: String = TemporaryPackage.consumerManifest) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-scaffold-\(UUID().uuidString)")
        let sources = directory.appendingPathComponent("Sources/ShowFormats")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try manifest.replacingOccurrences(of: "PARLEY_PATH", with: ScaffolderProcess.packageRoot.path)
            .write(to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try """
        import Parley

        // The formats the ParleyFormatRegistration plugin found linked into this executable.
        for format in Registry.linkedFormats {
            print(format.name, format.decodableMediaTypes.map(\\.description).joined(separator: " "))
        }

        """.write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
    }

    func read(_ path: String) -> String? {
        (try? Data(contentsOf: directory.appendingPathComponent(path))).map { String(decoding: $0, as: UTF8.self) }
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
