public import Parley
public import Vapor

extension ContentConfiguration {
    /// Media types whose coders stay Vapor's when a registry is installed: Vapor's plain text
    /// (how a returned `String` is sent) and its HTML forms (nested keys as `a[b]`).
    public static let vaporOwnedMediaTypes: Set<String> = [
        "text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
    ]

    /// Installs a ``ParleyContentCoder`` for every media type `registry` encodes or decodes, so
    /// `req.content.decode(T.self)` and `response.content.encode(value, as:)` work for each
    /// of them (JSON included: Parley's JSON replaces Vapor's `JSONEncoder`).
    ///
    /// Vapor keys its coders by type and subtype; wildcard and suffix ranges (`text/*`,
    /// `application/*+json`) cannot be installed, ``ParleyVapor/Vapor/Request/Parley/decode(_:)``
    /// matches them. The types in ``vaporOwnedMediaTypes`` keep Vapor's coders unless `except`
    /// says otherwise.
    ///
    /// ```swift
    /// ContentConfiguration.global.use(Registry.linked)
    /// ```
    ///
    /// - Parameters:
    ///   - registry: The formats.
    ///   - except: Essences (`type/subtype`, lower-case) left to the coders already configured.
    public mutating func use(_ registry: Registry, except: Set<String> = ContentConfiguration.vaporOwnedMediaTypes) {
        var decodable: [String: MediaType] = [:]
        for type in registry.decodableMediaTypes where !type.isRange && decodable[type.essence] == nil {
            decodable[type.essence] = type
        }
        for (essence, type) in decodable where !except.contains(essence) {
            use(decoder: ParleyContentCoder(registry: registry, mediaType: type), for: HTTPMediaType(type))
        }
        var installed: Set<String> = []
        for type in registry.encodableMediaTypes
        where !except.contains(type.essence) && installed.insert(type.essence).inserted {
            use(encoder: ParleyContentCoder(registry: registry, mediaType: type), for: HTTPMediaType(type))
        }
    }

    /// Vapor's default configuration with `registry` installed by ``use(_:except:)``.
    public static func parley(_ registry: Registry) -> ContentConfiguration {
        var configuration = ContentConfiguration.default()
        configuration.use(registry)
        return configuration
    }
}

extension HTTPMediaType {
    /// The same type, subtype and parameters as a Vapor media type.
    init(_ type: MediaType) {
        self.init(type: type.type, subType: type.subtype,
                  parameters: Dictionary(type.parameters.map { ($0.name, $0.value) }) { first, _ in first })
    }
}
