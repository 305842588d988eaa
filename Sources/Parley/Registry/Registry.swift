/// An immutable set of formats that answers the two questions Parley exists for: which format
/// decodes a body with this `Content-Type`, and which encodes a reply for this `Accept`.
///
/// Build a registry once and share it: it is a `Sendable` value, its lookup tables are computed
/// in the initialiser, and lookups never lock.
///
/// ```swift
/// let registry = Registry(formats: [JSONFormat(), YAMLFormat()] + Registry.builtInFormats)
/// let match = registry.decoder(for: "application/problem+json")   // JSON, by its suffix
/// let reply = registry.encoder(forAccept: "application/yaml, */*;q=0.1")
/// ```
///
/// With the `ParleyFormatRegistration` build-tool plugin, `Registry.linked` is generated for a
/// target and holds exactly the format modules it links.
public struct Registry: Sendable {
    /// The registered formats, in registration order.
    public let formats: [any Format]
    let table: MediaTypeMatcher
    let offers: AcceptNegotiator
    package let offerFormats: [Int]
    let limitsByFormat: [DecodingLimits]

    /// Creates a registry.
    ///
    /// - Parameters:
    ///   - formats: The formats, most preferred first. Registration order breaks ties.
    ///   - limits: Limits to use instead of a format's ``Format/defaultLimits``, by format name.
    public init(formats: [any Format], limits: [String: DecodingLimits] = [:]) {
        self.formats = formats
        self.table = MediaTypeMatcher(owned: formats.enumerated().flatMap { index, format in
            format.decodableMediaTypes.map { (type: $0, owner: index) }
        })
        var offerTypes: [MediaType] = []
        var offerFormats: [Int] = []
        for (index, format) in formats.enumerated() {
            for type in format.encodableMediaTypes where !type.isRange && !offerTypes.contains(type) {
                offerTypes.append(type)
                offerFormats.append(index)
            }
        }
        self.offers = AcceptNegotiator(offers: offerTypes)
        self.offerFormats = offerFormats
        self.limitsByFormat = formats.map { limits[$0.name] ?? $0.defaultLimits }
    }

    /// The core's own formats: plain text (`text/plain`, `text/*`), HTML forms
    /// (`application/x-www-form-urlencoded`) and raw bytes (`application/octet-stream`).
    public static let builtInFormats: [any Format] = [TextFormat(), FormURLEncodedFormat(), RawFormat()]

    /// A registry of the core's own formats only.
    public static let builtIn = Registry(formats: builtInFormats)

    /// A copy with `limits` in force for the format named `formatName`.
    public func settingLimits(_ limits: DecodingLimits, forFormat formatName: String) -> Registry {
        var byName: [String: DecodingLimits] = [:]
        for (format, current) in zip(formats, limitsByFormat) { byName[format.name] = current }
        byName[formatName] = limits
        return Registry(formats: formats, limits: byName)
    }

    /// The limits in force for `format` in this registry.
    public func limits(for format: any Format) -> DecodingLimits {
        formats.firstIndex { $0.name == format.name }.map { limitsByFormat[$0] } ?? format.defaultLimits
    }

    /// Every decodable media type, in registration and preference order.
    public var decodableMediaTypes: [MediaType] {
        var types: [MediaType] = []
        for format in formats {
            for type in format.decodableMediaTypes where !types.contains(type) { types.append(type) }
        }
        return types
    }

    /// Every encodable media type, in registration and preference order.
    public var encodableMediaTypes: [MediaType] { offers.offers }
}
