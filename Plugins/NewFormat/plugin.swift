import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory new-format --name Csv --media-type text/csv
/// [--encodes] [--decodes]`: creates a format module with its entry point and registration
/// marker, a test target running `ParleyTestKit`, and the `Package.swift` entries.
///
/// The plugin only finds the package and how it reaches Parley; `ParleyFormatScaffolder` (a
/// tested executable) checks the request and writes the files.
@main
struct NewFormat: CommandPlugin {
    struct Failed: Error, CustomStringConvertible {
        var description: String { "new-format did not change the package" }
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var toolArguments = ["--package-dir", context.package.directoryURL.path(percentEncoded: false)]
        if context.package.targets.contains(where: { $0.name == "Parley" }) {
            toolArguments.append("--parley-local-hint")
        } else if let parley = context.package.dependencies.first(where: { dependency in
            dependency.package.products.contains { $0.name == "Parley" }
        }) {
            toolArguments += ["--parley-package-hint", parley.package.displayName]
        }
        // The manifest's own `.product(name: "Parley", package: …)` or the user's --parley-package
        // win over these hints.
        toolArguments += arguments
        let process = Process()
        process.executableURL = try context.tool(named: "ParleyFormatScaffolder").url
        process.arguments = toolArguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed() }
    }
}
