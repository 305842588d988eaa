import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory new-format --name Csv --media-type text/csv
/// [--encodes] [--decodes] [--link-into TARGET]… [--no-link] [--no-product]`: creates a format
/// module with its entry point and registration marker, a test target running `ParleyTestKit`,
/// a library product, and links it into the package's Parley executables, editing `Package.swift`
/// through `swift package add-target`, `add-target-dependency` and `add-product`.
///
/// The plugin only reads the package graph: how the package reaches Parley, and which executables
/// link Parley (the default `--link-into`). `ParleyFormatScaffolder` (a tested executable) checks
/// the request, runs SwiftPM's commands and writes the files. The SwiftPM running this plugin holds
/// the package's build-folder lock, so the commands run with a scratch folder in the plugin's own
/// work directory.
@main
struct NewFormat: CommandPlugin {
    struct Failed: Error, CustomStringConvertible {
        var description: String { "new-format did not change the package" }
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let scratch = context.pluginWorkDirectoryURL.appending(path: "swiftpm")
        var toolArguments = ["--package-dir", context.package.directoryURL.path(percentEncoded: false),
                             "--scratch-path", scratch.path(percentEncoded: false)]
        if let swift = try? context.tool(named: "swift") {
            toolArguments += ["--swift", swift.url.path(percentEncoded: false)]
        }
        let executables = context.package.targets.compactMap { $0 as? SourceModuleTarget }
            .filter { $0.kind == .executable }
        if context.package.targets.contains(where: { $0.name == "Parley" }) {
            toolArguments.append("--parley-local-hint")
            // Parley's own package: new formats go into the parley tool.
            for tool in executables where tool.name == "parley" { toolArguments += ["--link-into-default", tool.name] }
        } else if let parley = context.package.dependencies.first(where: { dependency in
            dependency.package.products.contains { $0.name == "Parley" }
        }) {
            // The identity `.product(name:package:)` needs: the path's last component or the URL's
            // repository name (or the `name:` of `.package(name:path:)`), not the manifest's name.
            toolArguments += ["--parley-package-hint", parley.package.id]
            let parleyProducts = Set(parley.package.products.map(\.id))
            for tool in executables where tool.dependencies.contains(where: { dependency in
                if case .product(let product) = dependency { return parleyProducts.contains(product.id) }
                return false
            }) {
                toolArguments += ["--link-into-default", tool.name]
            }
        }
        // The manifest's own `.product(name: "Parley", package: …)` or the user's --parley-package
        // win over these hints, and the user's --link-into or --no-link over the defaults.
        toolArguments += arguments
        let process = Process()
        process.executableURL = try context.tool(named: "ParleyFormatScaffolder").url
        process.arguments = toolArguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed() }
    }
}
