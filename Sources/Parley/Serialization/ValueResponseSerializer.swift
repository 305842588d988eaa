public import HTTPTypes

/// Validates a response and decodes its body to a ``Value`` with the format its `Content-Type`
/// selects in a registry.
public struct ValueResponseSerializer: ResponseSerializer {
    /// The formats that may decode the body.
    public var registry: Registry
    /// Status, content type and empty-body checks run before decoding.
    public var validator: ResponseValidator

    /// Creates a serializer.
    public init(registry: Registry, validator: ResponseValidator = ResponseValidator()) {
        self.registry = registry
        self.validator = validator
    }

    public func serialize(_ response: HTTPResponse, body: [UInt8], request: HTTPRequest?) throws -> Value {
        try decodeValue(response, body: body, request: request)
    }

    /// The typed-throws form of ``serialize(_:body:request:)``.
    public func decodeValue(_ response: HTTPResponse, body: [UInt8], request: HTTPRequest?) throws(ParleyError) -> Value {
        switch try validator.validate(response, body: body, request: request, registry: registry) {
        case .empty(let value):
            return value
        case .decode(let match, let contentType):
            do {
                return try match.decode(body, contentType: contentType)
            } catch {
                throw error.with(response: response, body: body)
            }
        }
    }
}
