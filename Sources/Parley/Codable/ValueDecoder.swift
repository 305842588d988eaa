import FoundationEssentials

/// Decodes `Decodable` types from a ``Value``, so every value format gets Codable support from
/// one piece of code.
///
/// ```swift
/// let value = try registry.decoder(for: contentType)!.format.decode(body)
/// let user = try ValueDecoder().decode(User.self, from: value)
/// ```
///
/// Numbers convert between ``Value/integer(_:)``, ``Value/float(_:)`` and ``Value/number(_:)``
/// when the value fits the requested type exactly (a `UInt64` beyond `Int64.max` arrives as
/// ``Value/number(_:)`` text; `2.0` decodes as an `Int`); otherwise a
/// `DecodingError.dataCorrupted` names the value and the type. `Date` decodes from
/// ``Value/date(_:)`` or by ``dateDecodingStrategy``; `Data` and `[UInt8]` from
/// ``Value/bytes(_:)``, a base64 string, or an array of integers; `URL` from a string.
/// ``Value/tagged(_:_:)`` values decode as their inner value.
///
/// With ``convertsTextScalars`` on, which formats whose scalars are all text turn on for their bodies
/// (XML, CSV, forms: ``Format/scalarsAreText``), strings convert to the type asked for: `"7"`
/// decodes as any integer type it fits, `"12.5"` as `Double`, `Float` or `Decimal` (digits kept),
/// `true`/`false`/`1`/`0` as `Bool`. Text that is not one throws `DecodingError.typeMismatch`
/// naming the coding path, the text and the type. Formats with typed scalars (JSON, YAML, property
/// lists, MessagePack) leave it off, so a JSON string `"7"` is not an `Int`.
///
/// Objects with up to 16 members are searched linearly (no index is built); larger objects
/// get a key index when a container is made. When keys repeat, the last member wins.
public struct ValueDecoder: Sendable {
    /// How a `Date` is read from values other than ``Value/date(_:)``.
    public enum DateDecodingStrategy: Sendable, Hashable {
        /// An RFC 3339 / ISO 8601 string (`2024-05-06T07:08:09Z`, fractions and offsets allowed).
        case iso8601
        /// A number of seconds since 1970-01-01T00:00:00Z.
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01T00:00:00Z.
        case millisecondsSince1970
        /// `Date`'s own `Decodable` implementation (seconds since 2001-01-01).
        case deferredToDate
    }

    /// How dates are read from values other than ``Value/date(_:)``. Default ``DateDecodingStrategy/iso8601``.
    public var dateDecodingStrategy: DateDecodingStrategy
    /// Values handed to every `init(from:)` through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]
    /// Whether a value that is not an array decodes as a one-element array when an array is
    /// asked for, and a missing member as an empty one: XML writes an array as a repeated element,
    /// so one element reads back as that element and none as nothing. Default `false`;
    /// `XMLFormat` turns it on for its bodies.
    public var decodesSingleValuesAsArrays: Bool
    /// Whether strings convert to the numbers and Booleans a `Decodable` type asks for. Default
    /// `false`; ``Format``'s Codable decoding turns it on for formats whose ``Format/scalarsAreText``.
    public var convertsTextScalars: Bool

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - dateDecodingStrategy: How dates are read from strings or numbers.
    ///   - userInfo: Context for `init(from:)` implementations.
    ///   - decodesSingleValuesAsArrays: Whether a lone value reads as a one-element array.
    ///   - convertsTextScalars: Whether strings convert to numbers and Booleans.
    public init(dateDecodingStrategy: DateDecodingStrategy = .iso8601,
                userInfo: [CodingUserInfoKey: any Sendable] = [:], decodesSingleValuesAsArrays: Bool = false,
                convertsTextScalars: Bool = false) {
        self.dateDecodingStrategy = dateDecodingStrategy
        self.userInfo = userInfo
        self.decodesSingleValuesAsArrays = decodesSingleValuesAsArrays
        self.convertsTextScalars = convertsTextScalars
    }

    /// Decodes a value of `type` from `value`.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The value tree, as a format decoded it.
    /// - Returns: The decoded instance.
    /// - Throws: `DecodingError` (`typeMismatch`, `valueNotFound`, `keyNotFound`,
    ///   `dataCorrupted`) with the coding path, or any error `init(from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from value: Value) throws -> T {
        let decoder = ValueDecoderImplementation(value: value, codingPath: [], options: self)
        return try decoder.unwrap(value, as: T.self)
    }
}
