public import HTTPTypes
public import Parley
public import ParleyHTTP
public import FoundationEssentials

/// Builds a request from a method, a URL, parameters and header fields.
///
/// The request half of AFNetworking's two serializer protocols (`AFURLRequestSerialization`),
/// beside ``ResponseSerializer``: implemented by immutable values chosen per request.
/// ``ParameterRequestSerializer`` is Parley's own (parameters in the query or the body by
/// method, any registered body format, multipart, default headers); the client takes any
/// conforming value.
///
/// A custom serializer usually wraps ``ParameterRequestSerializer`` and changes what it built,
/// for example to add a credential:
///
/// ```swift
/// struct BearerTokenSerializer: RequestSerializer {
///     var base = ParameterRequestSerializer(registry: .linked)
///     var token: String
///
///     func makeRequest(method: HTTPRequest.Method, url: URL, parameters: Value?,
///                      headerFields: HTTPFields) throws(ParleyError) -> SerializedRequest {
///         authorize(try base.makeRequest(method: method, url: url, parameters: parameters,
///                                        headerFields: headerFields))
///     }
///
///     func makeRequest(method: HTTPRequest.Method, url: URL, multipart form: MultipartFormData,
///                      headerFields: HTTPFields) throws(ParleyError) -> SerializedRequest {
///         authorize(try base.makeRequest(method: method, url: url, multipart: form, headerFields: headerFields))
///     }
///
///     func authorize(_ built: SerializedRequest) -> SerializedRequest {
///         var built = built
///         built.request.headerFields[.authorization] = "Bearer \(token)"
///         return built
///     }
/// }
/// ```
public protocol RequestSerializer: Sendable {
    /// Builds a request with `parameters` (an object, or `nil` for none).
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - url: An absolute `http` or `https` URL.
    ///   - parameters: The parameters, placed wherever the serializer puts them.
    ///   - headerFields: Fields the caller set; they win over fields the serializer adds.
    /// - Returns: The request head and its body, if any.
    /// - Throws: `ParleyError` with `ParleyError.Code.invalidRequest` when the request
    ///   cannot be built.
    func makeRequest(method: HTTPRequest.Method, url: URL, parameters: Value?,
                     headerFields: HTTPFields) throws(ParleyError) -> SerializedRequest

    /// Builds a request from `Encodable` parameters.
    ///
    /// The default encodes them with a default `ValueEncoder` and calls
    /// ``makeRequest(method:url:parameters:headerFields:)``.
    ///
    /// - Throws: `ParleyError` with `ParleyError.Code.invalidRequest` when the parameters
    ///   cannot be encoded or the request cannot be built.
    func makeRequest<Parameters: Encodable>(method: HTTPRequest.Method, url: URL, encoding parameters: Parameters,
                                            headerFields: HTTPFields) throws(ParleyError) -> SerializedRequest

    /// Builds a request with a multipart form body.
    ///
    /// - Throws: `ParleyError` with `ParleyError.Code.invalidRequest` when the request
    ///   cannot be built (or the serializer does not send multipart forms).
    func makeRequest(method: HTTPRequest.Method, url: URL, multipart form: MultipartFormData,
                     headerFields: HTTPFields) throws(ParleyError) -> SerializedRequest
}

extension RequestSerializer {
    /// Encodes `parameters` with a default `ValueEncoder` and builds the request with
    /// ``makeRequest(method:url:parameters:headerFields:)``.
    public func makeRequest<Parameters: Encodable>(
        method: HTTPRequest.Method, url: URL, encoding parameters: Parameters,
        headerFields: HTTPFields
    ) throws(ParleyError) -> SerializedRequest {
        let value: Value
        do {
            value = try ValueEncoder().encode(parameters)
        } catch {
            throw ParleyError(
                .invalidRequest, "cannot encode \(Parameters.self) as parameters: \(error)", underlying: [error])
        }
        return try makeRequest(method: method, url: url, parameters: value, headerFields: headerFields)
    }
}

/// A built request: its head and, when it has one, its body.
public struct SerializedRequest: Sendable {
    /// The request head.
    public var request: HTTPRequest
    /// The body, or `nil`.
    public var body: RequestBody?

    /// Creates a serialized request.
    public init(request: HTTPRequest, body: RequestBody?) {
        self.request = request
        self.body = body
    }
}
