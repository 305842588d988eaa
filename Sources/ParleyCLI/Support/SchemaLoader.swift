public import Parley
import ParleyHTTP

/// How `--descriptor-set` files become a format, given by an executable that links a format reading schemas
/// (ParleyProtobuf): the commands stay free of any one format module.
public struct SchemaLoader: Sendable {
    /// Builds the configured format from the files' bytes, with the message types it knows.
    public var load: @Sendable (_ descriptorSets: [[UInt8]]) throws -> (format: any Format, messageTypes: [String])

    /// Creates a loader.
    public init(load: @escaping @Sendable ([[UInt8]]) throws -> (format: any Format, messageTypes: [String])) {
        self.load = load
    }
}

extension CommandEnvironment {
    nonisolated(unsafe) private static var loader: SchemaLoader?

    /// Sets the loader `--descriptor-set` uses (once, before any command runs).
    package static func setSchemaLoader(_ loader: SchemaLoader?) {
        Self.loader = loader
    }

    /// The registry with the format built from `paths` in place of the linked format of the same name
    /// (or first, when none is linked), and that format's message types; the plain registry without
    /// paths.
    package static func registry(descriptorSets paths: [String]) throws
        -> (registry: Registry, messageTypes: [String]) {
        guard !paths.isEmpty else { return (registry, []) }
        guard let loader else {
            throw InputError(message: "--descriptor-set: this parley links no format that reads them")
        }
        let sets = try paths.map { try readInput($0) }
        let loaded: (format: any Format, messageTypes: [String])
        do {
            loaded = try loader.load(sets)
        } catch {
            throw InputError(message: "--descriptor-set: \(error)")
        }
        let base = registry
        var formats = base.formats
        if let index = formats.firstIndex(where: { $0.name == loaded.format.name }) {
            formats[index] = loaded.format
        } else {
            formats.insert(loaded.format, at: 0)
        }
        return (Registry(formats: formats), loaded.messageTypes)
    }
}
