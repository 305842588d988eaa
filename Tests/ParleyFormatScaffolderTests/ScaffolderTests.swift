import Foundation
import Testing

/// The scaffolder run directly on temporary packages: what it writes, and what it refuses.
@Suite struct ScaffolderTests {
    @Test func createsTheModuleItsTestsAndTheConsumerManifestEntries() throws {
        let package = try TemporaryPackage()
        defer { package.remove() }
        let result = try ScaffolderProcess.scaffold(package.directory, ["--name", "Kv", "--media-type", "application/vnd.example.kv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("created Sources/Kv/KvFormat.swift"))
        #expect(package.read("Sources/Kv/parley-format.json") == #"{"formats": ["KvFormat"], "priority": 100}"# + "\n")
        let format = try #require(package.read("Sources/Kv/KvFormat.swift"))
        #expect(format.contains("public struct KvFormat: Format {"))
        #expect(format.contains(#"public var name: String { "kv" }"#))
        #expect(format.contains(#"public var encodableMediaTypes: [MediaType] { ["application/vnd.example.kv"] }"#))
        #expect(!format.contains("isTextual"))
        let tests = try #require(package.read("Tests/KvTests/KvFormatTests.swift"))
        #expect(tests.contains("import Kv\n"))
        #expect(tests.contains("FormatConformance.expectConformance(of: format"))
        let manifest = try #require(package.read("Package.swift"))
        #expect(manifest.contains("""
                    dependencies: [.product(name: "Parley", package: "parley"), "Kv" /* scaffold:parley */],
            """))
        #expect(manifest.contains(
            "        .target(name: \"Kv\", dependencies: [.product(name: \"Parley\", package: \"parley\")], exclude: [\"parley-format.json\"]),\n"
            + "        .testTarget(name: \"KvTests\", dependencies: [\"Kv\", .product(name: \"Parley\", package: \"parley\"), "
            + ".product(name: \"ParleyTestKit\", package: \"parley\")]),\n"
            + "        // scaffold:targets\n"))
    }

    @Test func patchesParleysOwnManifestWithTargetNames() throws {
        let own = try #require(try? String(contentsOf: ScaffolderProcess.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8))
        let package = try TemporaryPackage(manifest: own)
        defer { package.remove() }
        let result = try ScaffolderProcess.scaffold(package.directory, ["--name", "Toml", "--media-type", "application/toml", "--decodes"])
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try #require(package.read("Package.swift"))
        #expect(manifest.contains(#".target(name: "Toml", dependencies: ["Parley"], exclude: ["parley-format.json"]),"#))
        #expect(manifest.contains(#".testTarget(name: "TomlTests", dependencies: ["Toml", "Parley", "ParleyTestKit"]),"#))
        #expect(manifest.contains(#", "Toml" /* scaffold:parley */]"#))
        // Everything else is untouched: removing the three inserted pieces gives the original back.
        let restored = manifest
            .replacingOccurrences(of: "        .target(name: \"Toml\", dependencies: [\"Parley\"], exclude: [\"parley-format.json\"]),\n", with: "")
            .replacingOccurrences(of: "        .testTarget(name: \"TomlTests\", dependencies: [\"Toml\", \"Parley\", \"ParleyTestKit\"]),\n", with: "")
            .replacingOccurrences(of: ", \"Toml\" /* scaffold:parley */", with: " /* scaffold:parley */")
        #expect(restored == own)
        // --decodes alone: a decode-only format.
        let format = try #require(package.read("Sources/Toml/TomlFormat.swift"))
        #expect(!format.contains("encodableMediaTypes"))
        #expect(!format.contains("func encode"))
    }

    @Test func textTypesAreTextualAndEmptyDependencyListsGetNoStrayComma() throws {
        let package = try TemporaryPackage(manifest: TemporaryPackage.consumerManifest
            .replacingOccurrences(of: #"[.product(name: "Parley", package: "parley") /* scaffold:parley */]"#,
                                  with: "[/* scaffold:parley */]")
            .replacingOccurrences(of: "// scaffold:targets", with: "// scaffold:targets\n        .target(name: \"Uses\", dependencies: [.product(name: \"Parley\", package: \"parley\")]),"))
        defer { package.remove() }
        let result = try ScaffolderProcess.scaffold(package.directory, ["--name", "Csv", "--media-type", "text/csv;header=present"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(package.read("Package.swift")?.contains(#"dependencies: ["Csv", /* scaffold:parley */]"#) == true)
        let format = try #require(package.read("Sources/Csv/CsvFormat.swift"))
        #expect(format.contains("public var isTextual: Bool { true }"))
        #expect(format.contains(#"public var decodableMediaTypes: [MediaType] { ["text/csv; header=present"] }"#))
    }

    /// Each refusal: the arguments, how the package is prepared, and words the message must hold.
    @Test(arguments: [
        (["--name", "Csv", "--media-type", "text/*"], "none", "is a range"),
        (["--name", "Csv", "--media-type", "*/*"], "none", "is a range"),
        (["--name", "Csv", "--media-type", "textcsv"], "none", "not a valid media type"),
        (["--name", "Csv", "--media-type", "text/csv;charset"], "none", "not a valid media type"),
        (["--name", "csv", "--media-type", "text/csv"], "none", "not a module name"),
        (["--name", "Csv-2", "--media-type", "text/csv"], "none", "not a module name"),
        (["--name", "CsvFormat", "--media-type", "text/csv"], "none", "without a 'Format'"),
        (["--name", "ShowFormats", "--media-type", "text/csv"], "none", "is taken"),
        (["--name", "Csv", "--media-type", "text/csv"], "sourcesExist", "is taken"),
        (["--name", "Csv", "--media-type", "text/csv"], "noTargetsMarker", "no '// scaffold:targets' marker"),
        (["--name", "Csv", "--media-type", "text/csv"], "noParley", "does not use Parley"),
        (["--name", "Csv"], "none", "required"),
    ] as [([String], String, String)])
    func refusesWithAClearMessageAndChangesNothing(arguments: [String], setup: String, message: String) throws {
        var manifest = TemporaryPackage.consumerManifest
        if setup == "noTargetsMarker" { manifest = manifest.replacingOccurrences(of: "// scaffold:targets", with: "") }
        if setup == "noParley" {
            manifest = manifest.replacingOccurrences(of: #".product(name: "Parley", package: "parley") "#, with: "")
        }
        let package = try TemporaryPackage(manifest: manifest)
        defer { package.remove() }
        if setup == "sourcesExist" {
            try FileManager.default.createDirectory(at: package.directory.appendingPathComponent("Sources/Csv"),
                                                    withIntermediateDirectories: true)
        }
        let before = package.read("Package.swift")
        let result = try ScaffolderProcess.scaffold(package.directory, arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(package.read("Package.swift") == before)
        #expect(!package.exists("Tests/CsvTests"))
    }

    @Test func aParleyOwnManifestWithoutTheToolMarkerIsRefused() throws {
        let own = try String(contentsOf: ScaffolderProcess.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let package = try TemporaryPackage(manifest: own.replacingOccurrences(of: "/* scaffold:parley */", with: ""))
        defer { package.remove() }
        let result = try ScaffolderProcess.scaffold(package.directory, ["--name", "Toml", "--media-type", "application/toml"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no '/* scaffold:parley */' marker"))
    }
}
