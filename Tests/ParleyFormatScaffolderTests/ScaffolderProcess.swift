import Foundation
import Testing

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
        while folder.path != "/",
              !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
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

    /// Runs the scaffolder on `package` with `arguments` (it runs `swift package` from `PATH`).
    static func scaffold(_ package: URL, _ arguments: [String]) throws -> Result {
        try run(scaffolder, ["--package-dir", package.path] + arguments, seconds: 300)
    }

    /// The package's manifest as `swift package dump-package` reads it: what SwiftPM will build,
    /// whatever the text looks like.
    static func dumpPackage(_ package: URL) throws -> DumpedPackage {
        let swift = try #require(swift, "no swift on PATH")
        let result = try run(swift, ["package", "dump-package"], directory: package)
        try #require(result.status == 0, "\(result.stderr)")
        return try DumpedPackage(json: Data(result.stdout.utf8))
    }
}

/// A small package that depends on Parley by path, in a fresh temporary folder.
struct TemporaryPackage {
    let directory: URL

    /// A consumer as a new user writes it: no marker comments, Parley by path, one executable
    /// registering the formats it links through the plugin.
    static let consumerManifest = """
    // swift-tools-version: 6.1
    import PackageDescription

    let package = Package(
        name: "consumer",
        platforms: [.macOS(.v15)],
        dependencies: [.package(name: "parley", path: "PARLEY_PATH")],
        targets: [
            .executableTarget(name: "ShowFormats",
                              dependencies: [.product(name: "Parley", package: "parley")],
                              plugins: [.plugin(name: "ParleyFormatRegistration", package: "parley")]),
        ],
        swiftLanguageModes: [.v6]
    )

    """

    /// Creates the package with `manifest` (`PARLEY_PATH` replaced by this checkout's root).
    init(manifest: String = TemporaryPackage.consumerManifest) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-scaffold-\(UUID().uuidString)")
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

/// The parts of `swift package dump-package` the tests read.
struct DumpedPackage {
    struct Target: Equatable {
        var name: String
        var type: String
        /// `product:NAME@PACKAGE`, `target:NAME` or `byName:NAME`.
        var dependencies: [String]
        var exclude: [String]
    }

    var targets: [String: Target] = [:]
    var products: [String: [String]] = [:]

    init(json: Data) throws {
        let root = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        for target in root["targets"] as? [[String: Any]] ?? [] {
            let name = target["name"] as? String ?? ""
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency -> String? in
                guard let (kind, value) = dependency.first, let parts = value as? [Any] else { return nil }
                let first = parts.first as? String ?? ""
                guard kind == "product" else { return "\(kind):\(first)" }
                return "product:\(first)@\(parts.count > 1 ? parts[1] as? String ?? "" : "")"
            }
            targets[name] = Target(name: name, type: target["type"] as? String ?? "", dependencies: dependencies,
                                   exclude: target["exclude"] as? [String] ?? [])
        }
        for product in root["products"] as? [[String: Any]] ?? [] {
            products[product["name"] as? String ?? ""] = product["targets"] as? [String] ?? []
        }
    }
}
