import Foundation

/// Creates a Parley format module, its tests and their `Package.swift` entries (through
/// `swift package add-target` and friends); run by the `new-format` command plugin.
///
/// Usage: `ParleyFormatScaffolder --package-dir DIR --name NAME --media-type TYPE [--encodes]
/// [--decodes] [--parley-package NAME | --parley-local] [--link-into TARGET]… [--no-link]
/// [--no-product] [--swift PATH] [--scratch-path DIR] [--dry-run]`
///
/// A format always decodes (the contract requires a decodable type); `--decodes` alone makes a
/// decode-only format, `--encodes` or neither flag adds encoding. Exit 0 on success, 1 when the
/// request is refused or SwiftPM fails (with the reason on stderr, the package unchanged), 2 on a
/// usage error.
let usage = """
usage: new-format --name NAME --media-type TYPE [--encodes] [--decodes] [--link-into TARGET]... [--no-link]
                  [--no-product] [--parley-package NAME] [--dry-run]
  --name NAME         module name, a capitalised identifier (Csv → Sources/Csv, CsvFormat, Tests/CsvTests)
  --media-type TYPE   the concrete media type it handles (application/vnd.example.kv)
  --decodes           decode only; --encodes (or neither flag) also encodes
  --link-into TARGET  a target that links the module, so the registration plugin registers it there
                      (repeatable; default: the package's executables that depend on a Parley product,
                      or the parley tool in Parley's own package)
  --no-link           link the module into no target
  --no-product        add no library product for the module
  --parley-package    the package name of Parley in .product(name:package:) (found in Package.swift if omitted)
  --dry-run           print the files and the swift package commands, change nothing
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
var linkInto: [String] = []
var defaultLinks: [String] = []
var noLink = false
var addsProduct = true
var swift: URL?
var scratchPath: String?
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
    case "--link-into": linkInto.append(value())
    case "--link-into-default": defaultLinks.append(value())
    case "--no-link": noLink = true
    case "--no-product": addsProduct = false
    case "--swift": swift = URL(fileURLWithPath: value())
    case "--scratch-path": scratchPath = value()
    case "--help", "-h":
        print(usage)
        exit(0)
    default: exit("unknown argument '\(argument)'\n\(usage)", code: 2)
    }
}
guard let name, let mediaType else { exit("--name and --media-type are required\n\(usage)", code: 2) }
if noLink && !linkInto.isEmpty { exit("--no-link and --link-into exclude each other", code: 2) }

do {
    let links = noLink ? [] : (linkInto.isEmpty ? defaultLinks : linkInto)
    let scaffold = try FormatScaffold(packageDirectory: URL(fileURLWithPath: packageDirectory), name: name,
                                      mediaType: mediaType, encodes: encodes || !decodes, parley: parley, hint: hint,
                                      linkInto: links, addsProduct: addsProduct)
    if dryRun {
        for file in scaffold.files { print("would create \(file.path)") }
        for command in scaffold.commands { print("would run swift package \(command.joined(separator: " "))") }
        print("would change \(scaffold.excludeEdit.find) to \(scaffold.excludeEdit.replace)")
    } else {
        guard let swift = swift ?? SwiftPackage.swiftOnPath() else {
            exit("no swift on PATH to edit Package.swift with; pass --swift PATH", code: 1)
        }
        // A scratch folder of its own: the plugin runs inside a SwiftPM that holds the package's lock.
        let scratch = scratchPath ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-new-format-\(UUID().uuidString)").path
        defer { if scratchPath == nil { try? FileManager.default.removeItem(atPath: scratch) } }
        let written = try scaffold.apply(swift: swift, scratchPath: scratch) { print("ran \($0)") }
        for path in written { print("created \(path)") }
        let linked = links.isEmpty
            ? "No target links \(name) yet: add it to an executable that uses the ParleyFormatRegistration plugin."
            : "Linked into \(links.joined(separator: ", ")): the ParleyFormatRegistration plugin registers it "
                + "wherever it runs there."
        print("""
        \(scaffold.formatType) handles \(scaffold.mediaType). \(linked) Next:
          swift build
          swift test --filter \(name)Tests    # ParleyTestKit's conformance checks
        """)
    }
} catch let refusal as FormatScaffold.Refusal {
    exit(refusal.description, code: 1)
} catch let failure as SwiftPackage.Failed {
    exit(failure.description, code: 1)
} catch {
    exit("could not write the scaffold: \(error)", code: 1)
}
