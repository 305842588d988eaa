import Foundation
import Testing

/// The scaffolder run directly on temporary packages: the files it writes, the manifest SwiftPM's
/// own `swift package add-target` / `add-target-dependency` / `add-product` make of it (read back
/// through `swift package dump-package`), and what it refuses.
@Suite struct ScaffolderTests {
    @Test func addsTheModuleItsTestsItsProductAndTheLinkToAConsumerWithoutMarkers() throws {
        let package = try TemporaryPackage()
        defer { package.remove() }
        let result = try ScaffolderProcess.scaffold(package.directory, [
            "--name", "Kv", "--media-type", "application/vnd.example.kv", "--link-into-default", "ShowFormats",
        ])
        try #require(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("ran swift package add-target Kv --type library"))
        #expect(result.stdout.contains("created Sources/Kv/KvFormat.swift"))
        #expect(result.stdout.contains("Linked into ShowFormats"))
        #expect(package.read("Sources/Kv/parley-format.json") == #"{"formats": ["KvFormat"], "priority": 100}"# + "\n")
        let format = try #require(package.read("Sources/Kv/KvFormat.swift"))
        #expect(format.contains("public struct KvFormat: Format {"))
        #expect(format.contains(#"public var name: String { "kv" }"#))
        #expect(format.contains(#"public var encodableMediaTypes: [MediaType] { ["application/vnd.example.kv"] }"#))
        #expect(!format.contains("isTextual"))
        let tests = try #require(package.read("Tests/KvTests/KvFormatTests.swift"))
        #expect(tests.contains("import Kv\n"))
        #expect(tests.contains("FormatConformance.expectConformance(of: format"))
        // SwiftPM's placeholder sources are gone: one source per folder.
        #expect(!package.exists("Sources/Kv/Kv.swift"))
        #expect(!package.exists("Tests/KvTests/KvTests.swift"))

        let dumped = try ScaffolderProcess.dumpPackage(package.directory)
        #expect(dumped.targets["Kv"] == .init(name: "Kv", type: "regular", dependencies: ["product:Parley@parley"],
                                              exclude: ["parley-format.json"]))
        let testDependencies = ["byName:Kv", "product:Parley@parley", "product:ParleyTestKit@parley"]
        #expect(dumped.targets["KvTests"] == .init(name: "KvTests", type: "test", dependencies: testDependencies,
                                                   exclude: []))
        #expect(dumped.targets["ShowFormats"]?.dependencies == ["product:Parley@parley", "target:Kv"])
        #expect(dumped.products["Kv"] == ["Kv"])
    }

    @Test func addsToParleysOwnManifestByTargetName() throws {
        let ownManifest = ScaffolderProcess.packageRoot.appendingPathComponent("Package.swift")
        let own = try #require(try? String(contentsOf: ownManifest, encoding: .utf8))
        let package = try TemporaryPackage(manifest: own)
        defer { package.remove() }
        let result = try ScaffolderProcess.scaffold(package.directory, [
            "--name", "Toml", "--media-type", "application/toml", "--decodes", "--link-into-default", "parley",
        ])
        try #require(result.status == 0, "\(result.stdout)\(result.stderr)")
        let dumped = try ScaffolderProcess.dumpPackage(package.directory)
        #expect(dumped.targets["Toml"] == .init(name: "Toml", type: "regular", dependencies: ["target:Parley"],
                                                exclude: ["parley-format.json"]))
        #expect(dumped.targets["TomlTests"]?.dependencies == ["byName:Toml", "target:Parley", "target:ParleyTestKit"])
        #expect(dumped.targets["parley"]?.dependencies.last == "target:Toml")
        #expect(dumped.products["Toml"] == ["Toml"])
        // --decodes alone: a decode-only format.
        let format = try #require(package.read("Sources/Toml/TomlFormat.swift"))
        #expect(!format.contains("encodableMediaTypes"))
        #expect(!format.contains("func encode"))
    }

    @Test func textTypesAreTextualAndNoLinkNoProductAddOnlyTheTargets() throws {
        let package = try TemporaryPackage()
        defer { package.remove() }
        let result = try ScaffolderProcess.scaffold(package.directory, [
            "--name", "Csv", "--media-type", "text/csv;header=present", "--link-into-default", "ShowFormats",
            "--no-link", "--no-product",
        ])
        try #require(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("No target links Csv yet"))
        let format = try #require(package.read("Sources/Csv/CsvFormat.swift"))
        #expect(format.contains("public var isTextual: Bool { true }"))
        #expect(format.contains(#"public var decodableMediaTypes: [MediaType] { ["text/csv; header=present"] }"#))
        let dumped = try ScaffolderProcess.dumpPackage(package.directory)
        #expect(dumped.targets["ShowFormats"]?.dependencies == ["product:Parley@parley"])
        #expect(dumped.products.isEmpty)
        #expect(dumped.targets["CsvTests"] != nil)
    }

    @Test func dryRunPrintsTheCommandsAndChangesNothing() throws {
        let package = try TemporaryPackage()
        defer { package.remove() }
        let before = package.read("Package.swift")
        let result = try ScaffolderProcess.scaffold(package.directory, [
            "--name", "Kv", "--media-type", "application/vnd.example.kv", "--link-into", "ShowFormats", "--dry-run",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            would create Sources/Kv/KvFormat.swift
            would create Sources/Kv/parley-format.json
            would create Tests/KvTests/KvFormatTests.swift
            would run swift package add-target Kv --type library
            would run swift package add-target-dependency Parley Kv --package parley
            would run swift package add-target KvTests --type test --dependencies Kv
            would run swift package add-target-dependency Parley KvTests --package parley
            would run swift package add-target-dependency ParleyTestKit KvTests --package parley
            would run swift package add-product Kv --type library --targets Kv
            would run swift package add-target-dependency Kv ShowFormats
            would change .target(name: "Kv") to .target(name: "Kv", exclude: ["parley-format.json"])

            """)
        #expect(package.read("Package.swift") == before)
        #expect(!package.exists("Sources/Kv"))
    }

    /// A consumer that names Parley by another identity (a checkout folder that is not `parley`) and
    /// uses only a format product: the scaffolder takes that identity, not a guess.
    @Test func findsParleysIdentityFromAnyOfItsProducts() throws {
        let manifest = TemporaryPackage.consumerManifest
            .replacingOccurrences(of: #".package(name: "parley", path: "PARLEY_PATH")"#,
                                  with: #".package(path: "PARLEY_PATH")"#)
            .replacingOccurrences(of: #".product(name: "Parley", package: "parley")"#,
                                  with: #".product(name: "ParleyJSON", package: "parley-checkout")"#)
        let package = try TemporaryPackage(manifest: manifest)
        defer { package.remove() }
        let result = try ScaffolderProcess.scaffold(package.directory, [
            "--name", "Kv", "--media-type", "application/vnd.example.kv", "--no-link", "--dry-run",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = "would run swift package add-target-dependency Parley Kv --package parley-checkout"
        #expect(result.stdout.contains(expected), "\(result.stdout)")
    }

    /// SwiftPM refuses a step half-way (the package's name is not a target): everything is undone.
    @Test func aFailingSwiftPMStepLeavesThePackageAsItWas() throws {
        let package = try TemporaryPackage()
        defer { package.remove() }
        let before = package.read("Package.swift")
        let result = try ScaffolderProcess.scaffold(package.directory, [
            "--name", "Kv", "--media-type", "application/vnd.example.kv", "--link-into", "consumer",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("swift package add-target-dependency Kv consumer failed"), "\(result.stderr)")
        #expect(result.stderr.contains("Package.swift is unchanged"))
        #expect(package.read("Package.swift") == before)
        #expect(!package.exists("Sources/Kv"))
        #expect(!package.exists("Tests"), "the Tests folder SwiftPM made is gone too")
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
        (["--name", "Csv", "--media-type", "text/csv"], "noParley", "does not use Parley"),
        (["--name", "Csv", "--media-type", "text/csv", "--link-into", "Nowhere"], "none",
         "declares no target named \"Nowhere\""),
        (["--name", "Csv", "--media-type", "text/csv", "--link-into", "ShowFormats", "--no-link"], "none",
         "exclude each other"),
        (["--name", "Csv"], "none", "required"),
    ] as [([String], String, String)])
    func refusesWithAClearMessageAndChangesNothing(arguments: [String], setup: String, message: String) throws {
        var manifest = TemporaryPackage.consumerManifest
        if setup == "noParley" {
            manifest = manifest.replacingOccurrences(of: #".product(name: "Parley", package: "parley")"#, with: "")
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
}
