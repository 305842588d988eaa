public import HTTPTypes
public import Parley
public import ParleyHTTP

/// Validates a response, decodes its body with the format its `Content-Type` selects, and
/// decodes that value into `T` — whatever format the server chose — by running the
/// `ResponsePipeline`.
///
/// ```swift
/// let serializer = DecodableResponseSerializer<User>(registry: .linked)
/// let user = try serializer.serialize(response, body: body, request: request)
/// ```
///
/// An accepted empty body (see `EmptyBodyPolicy`) decodes as `Value.null`, so `T` must be
/// optional (or otherwise decodable from null) for such responses. `T` is never decoded from the
/// text or raw formats: a body labelled `text/plain` or `application/octet-stream` fails, saying
/// what the body looks like.
public struct DecodableResponseSerializer<T: Decodable & Sendable>: ResponseSerializer {
    /// The pipeline every response runs through.
    public var pipeline: ResponsePipeline
    /// Decodes the value into `T`.
    public var decoder: ValueDecoder

    /// Creates a serializer.
    public init(registry: Registry, validator: ResponseValidator = ResponseValidator(),
                decoder: ValueDecoder = ValueDecoder()) {
        self.init(pipeline: ResponsePipeline(registry: registry, validator: validator), decoder: decoder)
    }

    /// Creates a serializer running `pipeline`.
    public init(pipeline: ResponsePipeline, decoder: ValueDecoder = ValueDecoder()) {
        self.pipeline = pipeline
        self.decoder = decoder
    }

    public func serialize(_ response: HTTPResponse, body: [UInt8], request: HTTPRequest?) throws -> T {
        try pipeline.run(T.self, decoder: decoder, response, body: body, request: request).get()
    }
}
