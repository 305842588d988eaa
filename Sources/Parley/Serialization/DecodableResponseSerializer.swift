public import HTTPTypes

/// Validates a response, decodes its body with the format its `Content-Type` selects, and
/// decodes that value into `T` — whatever format the server chose.
///
/// ```swift
/// let serializer = DecodableResponseSerializer<User>(registry: .linked)
/// let user = try serializer.serialize(response, body: body, request: request)
/// ```
///
/// An accepted empty body (see ``EmptyBodyPolicy``) decodes as ``Value/null``, so `T` must be
/// optional (or otherwise decodable from null) for such responses.
public struct DecodableResponseSerializer<T: Decodable & Sendable>: ResponseSerializer {
    /// The validating value serializer that runs first.
    public var values: ValueResponseSerializer
    /// Decodes the value into `T`.
    public var decoder: ValueDecoder

    /// Creates a serializer.
    public init(registry: Registry, validator: ResponseValidator = ResponseValidator(),
                decoder: ValueDecoder = ValueDecoder()) {
        self.values = ValueResponseSerializer(registry: registry, validator: validator)
        self.decoder = decoder
    }

    public func serialize(_ response: HTTPResponse, body: [UInt8], request: HTTPRequest?) throws -> T {
        switch try values.validator.validate(response, body: body, request: request, registry: values.registry) {
        case .empty(let value):
            do {
                return try decoder.decode(T.self, from: value)
            } catch {
                throw ParleyError(.decodingFailed, "cannot decode \(T.self): \(error)", response: response, body: body,
                                  receivedContentType: response.headerFields[.contentType], underlying: [error])
            }
        case .decode(let match, let contentType):
            do {
                return try match.decode(T.self, from: body, contentType: contentType, decoder: decoder)
            } catch {
                throw error.with(response: response, body: body)
            }
        }
    }
}
