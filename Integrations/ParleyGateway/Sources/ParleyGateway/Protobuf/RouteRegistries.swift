import Foundation
import Parley
import ParleyProtobuf

/// The registries the gateway transcodes with: its own without a protobuf format that has no
/// schema (one that could only fail), and, for each route that names descriptor sets, that
/// registry with a protobuf format reading them, the route's message type its default.
enum RouteRegistries {
    /// `registry` without protobuf formats that have no schema.
    static func base(_ registry: Registry) -> Registry {
        let kept = registry.formats.filter { format in (format as? ProtobufFormat).map { $0.schema != nil } ?? true }
        guard kept.count < registry.formats.count else { return registry }
        return Registry(formats: kept, limits: limits(of: registry, for: kept))
    }

    /// The registry for `route`, or `nil` when it names no descriptor sets.
    ///
    /// - Throws: ``GatewayConfigurationError`` when a set cannot be read or parsed, or the message
    ///   type is not in the sets.
    static func registry(for route: GatewayConfiguration.Route,
                         base: Registry) throws(GatewayConfigurationError) -> Registry? {
        guard !route.descriptorSets.isEmpty else { return nil }
        var sets: [[UInt8]] = []
        for file in route.descriptorSets {
            guard let bytes = FileManager.default.contents(atPath: file.path) else {
                throw GatewayConfigurationError("route \(route.pathPrefix): cannot read the descriptor set "
                                                + "'\(file.path)'")
            }
            sets.append(Array(bytes))
        }
        let format: ProtobufFormat
        do {
            format = try ProtobufFormat(descriptorSets: sets, options: .init(messageType: route.messageType))
        } catch {
            throw GatewayConfigurationError("route \(route.pathPrefix): the descriptor sets do not parse: \(error)")
        }
        if let messageType = route.messageType, !format.messageTypes.contains(messageType) {
            throw GatewayConfigurationError("route \(route.pathPrefix): no message type '\(messageType)' "
                                            + "in its descriptor sets")
        }
        let formats = base.formats.filter { $0.name != format.name } + [format]
        return Registry(formats: formats, limits: limits(of: base, for: formats))
    }

    /// The limits `registry` sets for each of `formats` it has.
    private static func limits(of registry: Registry, for formats: [any Format]) -> [String: DecodingLimits] {
        var limits: [String: DecodingLimits] = [:]
        for format in formats where registry.formats.contains(where: { $0.name == format.name }) {
            limits[format.name] = registry.limits(for: format)
        }
        return limits
    }
}
