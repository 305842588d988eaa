import FoundationEssentials

/// Encodes `Encodable` values to a ``Value``, which any value format then writes.
///
/// ```swift
/// let value = try ValueEncoder().encode(user)
/// let body = try JSONFormat().encode(value)
/// ```
///
/// Integers become ``Value/integer(_:)`` (a `UInt64` beyond `Int64.max` becomes
/// ``Value/number(_:)`` text), `Double` and `Float` ``Value/float(_:)`` (a `Float` keeps its
/// shortest decimal form, so `0.1` stays `0.1`), `Date` and `Data` follow
/// ``dateEncodingStrategy`` and ``dataEncodingStrategy``, `URL` its absolute string. Object
/// members keep the order they were encoded in; encoding a key twice replaces its value in place.
public struct ValueEncoder: Sendable {
    /// How a `Date` is written.
    public enum DateEncodingStrategy: Sendable, Hashable {
        /// As ``Value/date(_:)``, so each format uses its own date representation (JSON
        /// writes an RFC 3339 string, property lists a `<date>`).
        case date
        /// As an RFC 3339 / ISO 8601 UTC string.
        case iso8601
        /// As seconds since 1970-01-01T00:00:00Z.
        case secondsSince1970
        /// As milliseconds since 1970-01-01T00:00:00Z.
        case millisecondsSince1970
        /// By `Date`'s own `Encodable` implementation (seconds since 2001-01-01).
        case deferredToDate
    }

    /// How `Data` is written.
    public enum DataEncodingStrategy: Sendable, Hashable {
        /// As ``Value/bytes(_:)``, so each format uses its own binary representation (JSON
        /// writes base64 text).
        case bytes
        /// As a base64 string.
        case base64
        /// By `Data`'s own `Encodable` implementation (an array of integers).
        case deferredToData
    }

    /// How dates are written. Default ``DateEncodingStrategy/date``.
    public var dateEncodingStrategy: DateEncodingStrategy
    /// How data is written. Default ``DataEncodingStrategy/bytes``.
    public var dataEncodingStrategy: DataEncodingStrategy
    /// Values handed to every `encode(to:)` through `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Creates an encoder.
    ///
    /// - Parameters:
    ///   - dateEncodingStrategy: How dates are written.
    ///   - dataEncodingStrategy: How data is written.
    ///   - userInfo: Context for `encode(to:)` implementations.
    public init(dateEncodingStrategy: DateEncodingStrategy = .date, dataEncodingStrategy: DataEncodingStrategy = .bytes,
                userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.dateEncodingStrategy = dateEncodingStrategy
        self.dataEncodingStrategy = dataEncodingStrategy
        self.userInfo = userInfo
    }

    /// Encodes `value` to a value tree.
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The value tree.
    /// - Throws: `EncodingError.invalidValue` when the value encodes nothing, or any error its
    ///   `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> Value {
        let encoder = ValueEncoderImplementation(options: self, codingPath: [])
        guard let node = try encoder.encodeNested(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "\(T.self) did not encode any value."))
        }
        return node.finished()
    }
}
