import Foundation
import Parley

/// Everything `new-format` creates for one format, checked before anything is written.
///
/// The module is `<Name>`, its format type `<Name>Format`, its tests `<Name>Tests`. The package's
/// `Package.swift` must hold the marker comment `// scaffold:targets` inside its `targets:`
/// array; `/* scaffold:parley */` inside an executable's dependency list (Parley's own `parley`
/// tool, or a consumer's own tool) makes the scaffold link the new module there too. In Parley's
/// own package that second marker is required.
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

    var formatType: String { name + "Format" }
    var formatName: String { name.lowercased() }
    var sourceFolder: URL { packageDirectory.appendingPathComponent("Sources/\(name)") }
    var testFolder: URL { packageDirectory.appendingPathComponent("Tests/\(name)Tests") }
    var manifestURL: URL { packageDirectory.appendingPathComponent("Package.swift") }

    static let targetsMarker = "// scaffold:targets"
    static let parleyMarker = "/* scaffold:parley */"

    /// Checks the request against the package and returns the scaffold, or a refusal saying why.
    ///
    /// - Parameters:
    ///   - parley: How to reach Parley, as the user said; `nil` finds it in the manifest (an
    ///     existing `.product(name: "Parley", package: "…")`, or local when the package has a
    ///     `Parley` target), then falls back to `hint` (what the plugin saw in the package graph).
    init(packageDirectory: URL, name: String, mediaType text: String, encodes: Bool,
         parley: ParleyReference?, hint: ParleyReference? = nil) throws(Refusal) {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first),
              name.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) })
        else {
            throw Refusal("'\(name)' is not a module name: use letters and digits, starting with a capital (for example Csv)")
        }
        guard !name.hasSuffix("Format"), !name.hasSuffix("Tests") else {
            throw Refusal("'\(name)': pass the name without a 'Format' or 'Tests' suffix; the format type is named <Name>Format")
        }
        let parsed: MediaType
        do { parsed = try MediaType(parsing: text) } catch {
            throw Refusal("'\(text)' is not a valid media type: \(error)")
        }
        guard !parsed.isRange, !parsed.subtype.contains("*") else {
            throw Refusal("'\(text)' is a range; a format declares concrete media types such as application/vnd.example.kv")
        }
        self.packageDirectory = packageDirectory
        self.name = name
        self.mediaType = parsed
        self.encodes = encodes
        let manifest = try Self.readManifest(at: packageDirectory.appendingPathComponent("Package.swift"))
        if let reference = parley ?? Self.findParley(in: manifest) ?? hint {
            self.parley = reference
        } else {
            throw Refusal("Package.swift does not use Parley yet: add .product(name: \"Parley\", package: \"parley\") to a target, or pass --parley-package NAME")
        }
        try checkNameIsFree(manifest: manifest)
        guard manifest.contains(Self.targetsMarker) else {
            throw Refusal("Package.swift has no '\(Self.targetsMarker)' marker: add that comment line inside the targets: array where new targets should go")
        }
        if self.parley == .local && !manifest.contains(Self.parleyMarker) {
            throw Refusal("Package.swift has no '\(Self.parleyMarker)' marker in the parley executable's dependencies")
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
        let pattern = #".product(name: "Parley", package: ""#
        if let range = manifest.range(of: pattern), let end = manifest[range.upperBound...].firstIndex(of: "\"") {
            return .package(String(manifest[range.upperBound..<end]))
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
            ("Sources/\(name)/parley-format.json", #"{"formats": ["\#(formatType)"], "priority": 100}"# + "\n"),
            ("Tests/\(name)Tests/\(formatType)Tests.swift", templates.tests),
        ]
    }

    /// `Package.swift` with the new targets added at the markers.
    func patchedManifest() throws(Refusal) -> String {
        var manifest = try Self.readManifest(at: manifestURL)
        ManifestPatch.insertLines(targetLines, before: Self.targetsMarker, in: &manifest)
        ManifestPatch.insertElement("\"\(name)\"", before: Self.parleyMarker, in: &manifest)
        return manifest
    }

    var targetLines: [String] {
        let core: String, kit: String
        switch parley {
        case .local:
            core = "\"Parley\""
            kit = "\"ParleyTestKit\""
        case .package(let package):
            core = ".product(name: \"Parley\", package: \"\(package)\")"
            kit = ".product(name: \"ParleyTestKit\", package: \"\(package)\")"
        }
        return [
            ".target(name: \"\(name)\", dependencies: [\(core)], exclude: [\"parley-format.json\"]),",
            ".testTarget(name: \"\(name)Tests\", dependencies: [\"\(name)\", \(core), \(kit)]),",
        ]
    }

    /// Writes the files and the patched manifest; returns the paths written.
    func apply() throws -> [String] {
        let manifest = try patchedManifest()
        var written: [String] = []
        for file in files {
            let url = packageDirectory.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
            written.append(file.path)
        }
        try manifest.write(to: manifestURL, atomically: true, encoding: .utf8)
        written.append("Package.swift")
        return written
    }
}
