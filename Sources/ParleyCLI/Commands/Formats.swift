import ArgumentParser
import Parley

struct Formats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "List the registered formats, their media types and limits.",
        discussion: """
        Lists every format linked into this parley, built-in or custom, in registration order.

        Examples:
          parley formats
          parley formats --json
          parley formats --descriptor-set api.binpb   # with its message types
        """)

    @Flag(help: "Print one JSON object per format.")
    var json = false

    @Option(name: .customLong("descriptor-set"),
            help: "A protobuf FileDescriptorSet whose message types to list (repeatable).")
    var descriptorSets: [String] = []

    func run() throws {
        let (registry, messageTypes) = try CommandEnvironment.registry(descriptorSets: descriptorSets)
        for format in registry.formats {
            let limits = registry.limits(for: format)
            let decodes = format.decodableMediaTypes.map(\.description)
            let encodes = format.encodableMediaTypes.map(\.description)
            if json {
                let list = { (types: [String]) in "[" + types.map { JSONText.quote($0) }.joined(separator: ", ") + "]" }
                print("{\"name\": \(JSONText.quote(format.name)), \"decodes\": \(list(decodes)), "
                    + "\"encodes\": \(list(encodes)), "
                    + "\"limits\": {\"maxBodyBytes\": \(limits.maxBodyBytes), \"maxDepth\": \(limits.maxDepth), "
                    + "\"maxNodes\": \(limits.maxNodes), \"maxExpansionRatio\": \(limits.maxExpansionRatio), "
                    + "\"maxPixels\": \(limits.maxPixels), \"maxDecompressedBytes\": \(limits.maxDecompressedBytes)}"
                    + (format.name == "protobuf" && !messageTypes.isEmpty
                       ? ", \"messageTypes\": \(list(messageTypes))}" : "}"))
            } else {
                print("\(format.name)")
                print("  decodes: \(decodes.joined(separator: ", "))")
                print("  encodes: \(encodes.isEmpty ? "(nothing)" : encodes.joined(separator: ", "))")
                print("  limits:  body \(limits.maxBodyBytes) bytes, depth \(limits.maxDepth), "
                    + "nodes \(limits.maxNodes), expansion \(limits.maxExpansionRatio)x, pixels \(limits.maxPixels), "
                    + "decompressed \(limits.maxDecompressedBytes) bytes")
                if format.name == "protobuf" && !messageTypes.isEmpty {
                    print("  message types: \(messageTypes.joined(separator: ", "))")
                }
            }
        }
    }
}
