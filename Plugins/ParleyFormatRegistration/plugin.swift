import Foundation
import PackagePlugin

/// Generates `Registry.linked` for a target: the formats of every format module the target
/// links, found through the `parley-format.json` marker in each module's source folder.
///
/// The plugin only collects the markers; `ParleyRegistryGenerator` (a tested executable)
/// reads them and writes the Swift file.
@main
struct ParleyFormatRegistration: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        var markers: [URL] = []
        var seen = Set<String>()
        for dependency in target.recursiveTargetDependencies {
            guard let module = dependency as? SourceModuleTarget, module.kind == .generic,
                  seen.insert(module.moduleName).inserted else { continue }
            let marker = module.directoryURL.appending(path: "parley-format.json")
            if FileManager.default.fileExists(atPath: marker.path(percentEncoded: false)) {
                markers.append(marker)
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "LinkedFormats.swift")
        var arguments = ["--output", output.path(percentEncoded: false)]
        for marker in markers {
            let module = marker.deletingLastPathComponent().lastPathComponent
            arguments += ["--module", module, "--marker", marker.path(percentEncoded: false)]
        }
        return [.buildCommand(
            displayName: "Registering \(markers.count) linked Parley format module(s) for \(target.name)",
            executable: try context.tool(named: "ParleyRegistryGenerator").url,
            arguments: arguments,
            inputFiles: markers,
            outputFiles: [output])]
    }
}
