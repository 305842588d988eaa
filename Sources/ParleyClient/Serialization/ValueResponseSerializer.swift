public import HTTPTypes
public import Parley
public import ParleyHTTP

/// Validates a response and decodes its body to a `Value` with the format its `Content-Type`
/// selects in a registry, by running the `ResponsePipeline`.
public struct ValueResponseSerializer: ResponseSerializer {
    /// The pipeline every response runs through.
    public var pipeline: ResponsePipeline

    /// Creates a serializer.
    public init(registry: Registry, validator: ResponseValidator = ResponseValidator()) {
        self.init(pipeline: ResponsePipeline(registry: registry, validator: validator))
    }

    /// Creates a serializer running `pipeline`.
    public init(pipeline: ResponsePipeline) {
        self.pipeline = pipeline
    }

    /// The formats that may decode the body.
    public var registry: Registry {
        get { pipeline.registry }
        set { pipeline.registry = newValue }
    }

    /// Status, content type and empty-body checks run before decoding.
    public var validator: ResponseValidator {
        get { pipeline.validator }
        set { pipeline.validator = newValue }
    }

    public func serialize(_ response: HTTPResponse, body: [UInt8], request: HTTPRequest?) throws -> Value {
        try decodeValue(response, body: body, request: request)
    }

    /// The typed-throws form of ``serialize(_:body:request:)``.
    public func decodeValue(
        _ response: HTTPResponse, body: [UInt8], request: HTTPRequest?
    ) throws(ParleyError) -> Value {
        try pipeline.run(response, body: body, request: request).get()
    }
}
