import Foundation
import Parley

/// Everything `new-format` creates for one format, checked before anything is written.
///
/// The module is `<Name>`, its format type `<Name>Format`, its tests `<Name>Tests`. The manifest
/// is edited only through SwiftPM's own commands (`swift package add-target`,
/// `add-target-dependency`, `add-product`; see ``commands``), so any package that depends on
/// Parley can be scaffolded, with no marker comments. The one edit SwiftPM has no command for,
/// `exclude: ["parley-format.json"]` on the new target, replaces the exact call
/// `.target(name: "<Name>")` that `add-target` has just written.
struct FormatScaffold {
    /// How the package reaches the Parley libraries.
    enum ParleyReference: Equatable {
        /// The package is Parley itself: targets by name.
        case local
        /// A package depending on Parley, named as in `.product(name:package:)`.
        case package(String)
    }

    struct Refusal: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    let packageDirectory: URL
    let name: String
    let mediaType: MediaType
    let encodes: Bool
    let parley: ParleyReference
    /// Targets that link the new module, so the registration plugin registers it there.
    let linkInto: [String]
    /// Whether a library product of the same name is added.
    let addsProduct: Bool

    var formatType: String { name + "Format" }
    var formatName: String { name.lowercased() }
    var sourceFolder: URL { packageDirectory.appendingPathComponent("Sources/\(name)") }
    var testFolder: URL { packageDirectory.appendingPathComponent("Tests/\(name)Tests") }
    var manifestURL: URL { packageDirectory.appendingPathComponent("Package.swift") }

    /// Checks the request against the package and returns the scaffold, or a refusal saying why.
    ///
    /// - Parameters:
    ///   - parley: How to reach Parley, as the user said; `nil` finds it in the manifest (an
    ///     existing `.product(name: "Parley", package: "…")`, or local when the package has a
    ///     `Parley` target), then falls back to `hint` (what the plugin saw in the package graph).
    init(packageDirectory: URL, name: String, mediaType text: String, encodes: Bool,
         parley: ParleyReference?, hint: ParleyReference? = nil, linkInto: [String] = [],
         addsProduct: Bool = true) throws(Refusal) {
        let isLetterOrDigit = { (c: Unicode.Scalar) in
            ("A"..."Z").contains(c) || ("a"..."z").contains(c) || ("0"..."9").contains(c)
        }
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first),
              name.unicodeScalars.allSatisfy(isLetterOrDigit)
        else {
            throw Refusal("'\(name)' is not a module name: use letters and digits, starting with a capital "
                          + "(for example Csv)")
        }
        guard !name.hasSuffix("Format"), !name.hasSuffix("Tests") else {
            throw Refusal("'\(name)': pass the name without a 'Format' or 'Tests' suffix; "
                          + "the format type is named <Name>Format")
        }
        let parsed: MediaType
        do { parsed = try MediaType(parsing: text) } catch {
            throw Refusal("'\(text)' is not a valid media type: \(error)")
        }
        guard !parsed.isRange, !parsed.subtype.contains("*") else {
            throw Refusal("'\(text)' is a range; a format declares concrete media types "
                          + "such as application/vnd.example.kv")
        }
        self.packageDirectory = packageDirectory
        self.name = name
        self.mediaType = parsed
        self.encodes = encodes
        self.linkInto = linkInto
        self.addsProduct = addsProduct
        let manifest = try Self.readManifest(at: packageDirectory.appendingPathComponent("Package.swift"))
        if let reference = parley ?? Self.findParley(in: manifest) ?? hint {
            self.parley = reference
        } else {
            throw Refusal("Package.swift does not use Parley yet: add .product(name: \"Parley\", "
                          + "package: \"parley\") to a target, or pass --parley-package NAME")
        }
        try checkNameIsFree(manifest: manifest)
        for target in linkInto where !manifest.contains("name: \"\(target)\"") {
            throw Refusal("--link-into \(target): Package.swift declares no target named \"\(target)\"")
        }
    }

    static func readManifest(at url: URL) throws(Refusal) -> String {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Refusal("no Package.swift at \(url.path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func findParley(in manifest: String) -> ParleyReference? {
        if manifest.contains(#".target(name: "Parley","#) { return .local }
        // Any of Parley's products names the package: `.product(name: "ParleyJSON", package: "parley-main")`.
        let pattern = #".product(name: "Parley"#
        var searchStart = manifest.startIndex
        while let range = manifest.range(of: pattern, range: searchStart..<manifest.endIndex) {
            searchStart = range.upperBound
            guard let close = manifest[range.upperBound...].firstIndex(of: ")") else { break }
            let arguments = manifest[range.upperBound..<close]
            guard let package = arguments.range(of: #"package: ""#),
                  let end = arguments[package.upperBound...].firstIndex(of: "\"") else { continue }
            return .package(String(arguments[package.upperBound..<end]))
        }
        return nil
    }

    func checkNameIsFree(manifest: String) throws(Refusal) {
        for folder in [sourceFolder, testFolder] where FileManager.default.fileExists(atPath: folder.path) {
            throw Refusal("the name \(name) is taken: \(folder.path) exists")
        }
        for target in [name, name + "Tests"] where manifest.contains("name: \"\(target)\"") {
            throw Refusal("the name \(name) is taken: Package.swift already declares \"\(target)\"")
        }
    }

    // MARK: Writing

    /// The files to create, by path relative to the package.
    var files: [(path: String, contents: String)] {
        let templates = FormatTemplates(scaffold: self)
        return [
            ("Sources/\(name)/\(formatType).swift", templates.format),
            ("Sources/\(name)/\(Self.registrationMarker)", #"{"formats": ["\#(formatType)"], "priority": 100}"# + "\n"),
            ("Tests/\(name)Tests/\(formatType)Tests.swift", templates.tests),
        ]
    }

    /// The file the `ParleyFormatRegistration` plugin looks for in a module's folder.
    static let registrationMarker = "parley-format.json"

    /// The `swift package` subcommands that add the targets, in order: the module (depending on
    /// Parley), its tests (on the module, Parley and `ParleyTestKit`), its library product, then
    /// the links into ``linkInto`` (last: SwiftPM finds a target by the first `.target(name:)`
    /// call it meets, and a link writes one into another target's dependencies).
    var commands: [[String]] {
        func parleyDependency(_ product: String, of target: String) -> [String] {
            switch parley {
            case .local: ["add-target-dependency", product, target]
            case .package(let package): ["add-target-dependency", product, target, "--package", package]
            }
        }
        var commands: [[String]] = [
            ["add-target", name, "--type", "library"],
            parleyDependency("Parley", of: name),
            ["add-target", name + "Tests", "--type", "test", "--dependencies", name],
            parleyDependency("Parley", of: name + "Tests"),
            parleyDependency("ParleyTestKit", of: name + "Tests"),
        ]
        if addsProduct { commands.append(["add-product", name, "--type", "library", "--targets", name]) }
        for target in linkInto { commands.append(["add-target-dependency", name, target]) }
        return commands
    }

    /// What `add-target` writes for a target without dependencies, and what it becomes.
    var excludeEdit: (find: String, replace: String) {
        (".target(name: \"\(name)\")", ".target(name: \"\(name)\", exclude: [\"\(Self.registrationMarker)\"])")
    }

    /// Edits the manifest through `swift package` at `swift` (with its build folder at
    /// `scratchPath`, away from a running SwiftPM's lock), then writes the files in place of
    /// SwiftPM's placeholder sources. On any failure the manifest is restored and the new
    /// folders removed. Logs each command before it runs; returns the paths written.
    func apply(swift: URL, scratchPath: String, log: (String) -> Void) throws -> [String] {
        let original = try Self.readManifest(at: manifestURL)
        let topFolders = ["Sources", "Tests"].map { packageDirectory.appendingPathComponent($0) }
            .filter { !FileManager.default.fileExists(atPath: $0.path) }
        do {
            try FileManager.default.createDirectory(at: packageDirectory.appendingPathComponent("Sources"),
                                                    withIntermediateDirectories: true)
            for (index, arguments) in commands.enumerated() {
                log("swift package " + arguments.joined(separator: " "))
                try SwiftPackage.run(swift, arguments, scratchPath: scratchPath, in: packageDirectory)
                if index == 0 { try addExclude() }
            }
            // SwiftPM's placeholders (Sources/<Name>/<Name>.swift, Tests/<Name>Tests/<Name>Tests.swift) give way.
            for folder in [sourceFolder, testFolder] {
                for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                    try FileManager.default.removeItem(at: folder.appendingPathComponent(file))
                }
            }
            var written: [String] = []
            for file in files {
                let url = packageDirectory.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                        withIntermediateDirectories: true)
                try file.contents.write(to: url, atomically: true, encoding: .utf8)
                written.append(file.path)
            }
            return written
        } catch {
            try? original.write(to: manifestURL, atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(at: sourceFolder)
            try? FileManager.default.removeItem(at: testFolder)
            for folder in topFolders { try? FileManager.default.removeItem(at: folder) }
            throw error
        }
    }

    private func addExclude() throws(Refusal) {
        let manifest = try Self.readManifest(at: manifestURL)
        let edit = excludeEdit
        let parts = manifest.components(separatedBy: edit.find)
        guard parts.count == 2 else {
            throw Refusal("swift package add-target did not write '\(edit.find)' once as expected; nothing was changed")
        }
        do {
            try parts.joined(separator: edit.replace).write(to: manifestURL, atomically: true, encoding: .utf8)
        } catch {
            throw Refusal("cannot write Package.swift: \(error)")
        }
    }
}
