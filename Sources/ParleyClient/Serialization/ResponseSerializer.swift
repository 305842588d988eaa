public import HTTPTypes
import Parley
import ParleyHTTP

/// Turns a response and its body into a typed result, or a `ParleyError` explaining why not.
///
/// The Swift form of AFNetworking's `AFURLResponseSerialization`: one method, implemented by
/// immutable values chosen per request. Parley's own serializers validate first (status,
/// `Content-Type`, empty bodies; see `ResponseValidator`) and then decode through a
/// `Registry`.
///
/// ```swift
/// let serializer = ValueResponseSerializer(registry: .linked)
/// let value = try serializer.serialize(response, body: body, request: request)
/// ```
public protocol ResponseSerializer<Output>: Sendable {
    /// What a successful serialization produces.
    associatedtype Output: Sendable

    /// Validates and decodes a response.
    ///
    /// - Parameters:
    ///   - response: The response head.
    ///   - body: The whole body, after any `Content-Encoding` was removed.
    ///   - request: The request that produced the response, when known (a `HEAD` request
    ///     allows an empty body).
    /// - Returns: The decoded result.
    /// - Throws: `ParleyError` carrying the response and body.
    func serialize(_ response: HTTPResponse, body: [UInt8], request: HTTPRequest?) throws -> Output
}
