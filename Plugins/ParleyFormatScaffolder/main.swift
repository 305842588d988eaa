import Foundation

/// Creates a Parley format module, its tests and its `Package.swift` entries; run by the
/// `new-format` command plugin (see `FormatScaffold` for the markers it needs).
///
/// Usage: `ParleyFormatScaffolder --package-dir DIR --name NAME --media-type TYPE [--encodes]
/// [--decodes] [--parley-package NAME | --parley-local] [--dry-run]`
///
/// A format always decodes (the contract requires a decodable type); `--decodes` alone makes a
/// decode-only format, `--encodes` or neither flag adds encoding. Exit 0 on success, 1 when the
/// request is refused (with the reason on stderr), 2 on a usage error.
let usage = """
usage: new-format --name NAME --media-type TYPE [--encodes] [--decodes] [--parley-package NAME] [--dry-run]
  --name NAME         module name, a capitalised identifier (Csv → Sources/Csv, CsvFormat, Tests/CsvTests)
  --media-type TYPE   the concrete media type it handles (application/vnd.example.kv)
  --decodes           decode only; --encodes (or neither flag) also encodes
  --parley-package    the package name of Parley in .product(name:package:) (found in Package.swift if omitted)
  --dry-run           print what would be created and the patched Package.swift, write nothing
"""

func exit(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("new-format: \(message)\n".utf8))
    exit(code)
}

var packageDirectory = FileManager.default.currentDirectoryPath
var name: String?
var mediaType: String?
var encodes = false
var decodes = false
var dryRun = false
var parley: FormatScaffold.ParleyReference?
var hint: FormatScaffold.ParleyReference?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    func value() -> String {
        guard let value = arguments.next() else { exit("\(argument) needs a value\n\(usage)", code: 2) }
        return value
    }
    switch argument {
    case "--package-dir": packageDirectory = value()
    case "--name": name = value()
    case "--media-type": mediaType = value()
    case "--encodes": encodes = true
    case "--decodes": decodes = true
    case "--dry-run": dryRun = true
    case "--parley-package": parley = .package(value())
    case "--parley-local": parley = .local
    case "--parley-package-hint": hint = .package(value())
    case "--parley-local-hint": hint = .local
    case "--help", "-h":
        print(usage)
        exit(0)
    default: exit("unknown argument '\(argument)'\n\(usage)", code: 2)
    }
}
guard let name, let mediaType else { exit("--name and --media-type are required\n\(usage)", code: 2) }

do {
    let scaffold = try FormatScaffold(packageDirectory: URL(fileURLWithPath: packageDirectory), name: name,
                                      mediaType: mediaType, encodes: encodes || !decodes, parley: parley, hint: hint)
    if dryRun {
        for file in scaffold.files { print("would create \(file.path)") }
        print("would patch Package.swift:\n\(try scaffold.patchedManifest())")
    } else {
        for path in try scaffold.apply() { print(path == "Package.swift" ? "patched \(path)" : "created \(path)") }
        print("""
        \(scaffold.formatType) handles \(scaffold.mediaType). Next:
          swift build                        # the registration plugin now links \(name)
          swift test --filter \(name)Tests    # ParleyTestKit's conformance checks
        """)
    }
} catch let refusal as FormatScaffold.Refusal {
    exit(refusal.description, code: 1)
} catch {
    exit("could not write the scaffold: \(error)", code: 1)
}
