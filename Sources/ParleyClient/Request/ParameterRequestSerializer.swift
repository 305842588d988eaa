public import HTTPTypes
public import Parley
public import ParleyHTTP
public import FoundationEssentials

/// The default ``RequestSerializer``: builds requests from a method, a URL and parameters, the
/// Swift form of AFNetworking's `AFHTTPRequestSerializer`, as one immutable value chosen per request.
///
/// Parameters go in the URL query for the methods in ``queryMethods`` (default `GET`, `HEAD`,
/// `DELETE`) and in the body otherwise, encoded as ``bodyEncoding`` says: a form with
/// ``formEncoder``, or any format of ``registry`` by media type (JSON, property list, YAML, …).
/// The body's `Content-Type` carries `charset=utf-8` when the format is textual, and
/// `Content-Length` is always set. ``defaultHeaders`` are added unless the request sets the
/// same field.
///
/// ```swift
/// let serializer = ParameterRequestSerializer(registry: .linked, bodyEncoding: .json)
/// let get = try serializer.makeRequest(method: .get, url: url, parameters: ["q": "swift", "page": 2])
/// // GET https://api.example.com/search?page=2&q=swift
/// let post = try serializer.makeRequest(method: .post, url: url, parameters: ["name": "Ada"])
/// // Content-Type: application/json; charset=utf-8, body {"name":"Ada"}
/// ```
///
/// A body on `GET` or `HEAD` (parameters routed to the body, multipart, raw bytes) throws
/// `ParleyError.Code.invalidRequest` unless ``allowsBodyOnGetAndHead`` is set.
public struct ParameterRequestSerializer: RequestSerializer {
    /// How parameters placed in the body are encoded.
    public enum BodyEncoding: Sendable, Hashable {
        /// `application/x-www-form-urlencoded` through ``ParameterRequestSerializer/formEncoder``.
        case form
        /// The registry format that encodes this media type.
        case mediaType(MediaType)

        /// `application/json`.
        public static let json = BodyEncoding.mediaType(
            MediaType(lowercasedType: "application", subtype: "json", parameters: []))
        /// `application/x-plist` (XML property list).
        public static let propertyList = BodyEncoding.mediaType(
            MediaType(lowercasedType: "application", subtype: "x-plist", parameters: []))
        /// `application/yaml`.
        public static let yaml = BodyEncoding.mediaType(
            MediaType(lowercasedType: "application", subtype: "yaml", parameters: []))
    }

    /// The formats bodies may be encoded with.
    public var registry: Registry
    /// How parameters placed in the body are encoded. Default ``BodyEncoding/json``.
    public var bodyEncoding: BodyEncoding
    /// Methods whose parameters go in the URL query. Default `GET`, `HEAD`, `DELETE`.
    public var queryMethods: Set<HTTPRequest.Method>
    /// Encodes query parameters. Default `QueryEncoder()` (space as `%20`, keys sorted).
    public var queryEncoder: QueryEncoder
    /// Encodes form bodies. Default `QueryEncoder.form` (space as `+`).
    public var formEncoder: QueryEncoder
    /// Turns `Encodable` parameters into a value tree.
    public var valueEncoder: ValueEncoder
    /// Fields added to every request.
    public var defaultHeaders: DefaultHeaders
    /// Whether `GET` and `HEAD` may carry a body. Default `false`.
    public var allowsBodyOnGetAndHead: Bool

    /// Creates a serializer.
    public init(registry: Registry = .builtIn, bodyEncoding: BodyEncoding = .json,
                queryMethods: Set<HTTPRequest.Method> = [.get, .head, .delete],
                queryEncoder: QueryEncoder = QueryEncoder(), formEncoder: QueryEncoder = .form,
                valueEncoder: ValueEncoder = ValueEncoder(), defaultHeaders: DefaultHeaders? = nil,
                allowsBodyOnGetAndHead: Bool = false) {
        self.registry = registry
        self.bodyEncoding = bodyEncoding
        self.queryMethods = queryMethods
        self.queryEncoder = queryEncoder
        self.formEncoder = formEncoder
        self.valueEncoder = valueEncoder
        self.defaultHeaders = defaultHeaders ?? DefaultHeaders(registry: registry)
        self.allowsBodyOnGetAndHead = allowsBodyOnGetAndHead
    }

    /// Builds a request with `parameters` (an object, or `nil` for none) in the query or body.
    ///
    /// - Throws: `ParleyError` with `ParleyError.Code.invalidRequest` for a URL without
    ///   scheme or host, parameters that cannot be encoded (not an object, a non-finite float,
    ///   a value the body format refuses), a body format the registry lacks, or a body on
    ///   `GET`/`HEAD`.
    public func makeRequest(method: HTTPRequest.Method, url: URL, parameters: Value? = nil,
                            headerFields: HTTPFields = [:]) throws(ParleyError) -> SerializedRequest {
        let hasParameters = parameters.map { !($0.objectValue?.isEmpty ?? false) && !$0.isNull } ?? false
        guard hasParameters, let parameters else {
            return SerializedRequest(
                request: try head(method: method, url: url, query: nil, headerFields: headerFields), body: nil)
        }
        if queryMethods.contains(method) {
            let query: String
            do {
                query = try queryEncoder.encode(parameters)
            } catch {
                throw ParleyError(.invalidRequest, "cannot encode query parameters: \(error)", underlying: [error])
            }
            return SerializedRequest(
                request: try head(method: method, url: url, query: query, headerFields: headerFields), body: nil)
        }
        let (bytes, contentType) = try encodeBody(parameters)
        return try makeRequest(
            method: method, url: url, body: .bytes(bytes), contentType: contentType, headerFields: headerFields)
    }

    /// Builds a request from `Encodable` parameters (through ``valueEncoder``).
    public func makeRequest<Parameters: Encodable>(
        method: HTTPRequest.Method, url: URL, encoding parameters: Parameters,
        headerFields: HTTPFields = [:]
    ) throws(ParleyError) -> SerializedRequest {
        let value: Value
        do {
            value = try valueEncoder.encode(parameters)
        } catch {
            throw ParleyError(
                .invalidRequest, "cannot encode \(Parameters.self) as parameters: \(error)", underlying: [error])
        }
        return try makeRequest(method: method, url: url, parameters: value, headerFields: headerFields)
    }

    /// Builds a request with a multipart form body (`Content-Type` with its boundary,
    /// exact `Content-Length`).
    public func makeRequest(method: HTTPRequest.Method, url: URL, multipart form: MultipartFormData,
                            headerFields: HTTPFields = [:]) throws(ParleyError) -> SerializedRequest {
        try makeRequest(
            method: method, url: url, body: .multipart(form), contentType: form.contentType, headerFields: headerFields)
    }

    /// Builds a request with a prepared body.
    public func makeRequest(method: HTTPRequest.Method, url: URL, body: RequestBody, contentType: MediaType,
                            headerFields: HTTPFields = [:]) throws(ParleyError) -> SerializedRequest {
        if (method == .get || method == .head) && !allowsBodyOnGetAndHead {
            throw ParleyError(
                .invalidRequest,
                "\(method.rawValue) request with a body; put parameters in the query or set allowsBodyOnGetAndHead")
        }
        var fields = headerFields
        if !fields.contains(.contentType) { fields[.contentType] = contentType.description }
        fields[.contentLength] = String(body.contentLength)
        return SerializedRequest(
            request: try head(method: method, url: url, query: nil, headerFields: fields), body: body)
    }

    /// The encoded body and its `Content-Type` for parameters placed in the body.
    public func encodeBody(_ parameters: Value) throws(ParleyError) -> ([UInt8], MediaType) {
        switch bodyEncoding {
        case .form:
            do {
                return (try formEncoder.encodeBytes(parameters), FormURLEncodedFormat.mediaType)
            } catch {
                throw ParleyError(
                    .invalidRequest, "cannot encode form parameters: \(error)", format: "form", underlying: [error])
            }
        case .mediaType(let type):
            guard let choice = registry.encoder(forAccept: type.withoutParameters.description),
                  choice.mediaType.essence == type.essence else {
                throw ParleyError(
                    .invalidRequest,
                    "no registered format encodes \(type); "
                        + "can encode \(registry.encodableMediaTypes.map(\.description).joined(separator: ", "))",
                    acceptableTypes: registry.encodableMediaTypes)
            }
            var contentType = choice.mediaType
            for parameter in type.parameters {
                contentType = contentType.settingParameter(parameter.name, to: parameter.value)
            }
            if choice.format.isTextual, contentType.charset == nil {
                contentType = contentType.settingParameter("charset", to: "utf-8")
            }
            do {
                return (
                    try choice.format.encode(parameters, context: EncodingContext(mediaType: contentType)), contentType
                )
            } catch {
                throw ParleyError(.invalidRequest, "\(choice.format.name) cannot encode the parameters: \(error)",
                                  format: choice.format.name, underlying: [error])
            }
        }
    }

    /// The request head: URL split into scheme, authority and path, query appended, default
    /// fields added.
    func head(
        method: HTTPRequest.Method, url: URL, query: String?, headerFields: HTTPFields
    ) throws(ParleyError) -> HTTPRequest {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host(percentEncoded: true), !host.isEmpty else {
            throw ParleyError(
                .invalidRequest, "invalid URL '\(url.absoluteString)': an http or https URL with a host is required")
        }
        var authority = host.contains(":") ? "[\(host)]" : host
        if let port = url.port { authority += ":\(port)" }
        var path = url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        let existing = url.query(percentEncoded: true).flatMap { $0.isEmpty ? nil : $0 }
        switch (existing, query) {
        case (let existing?, let query?) where !query.isEmpty: path += "?\(existing)&\(query)"
        case (let existing?, _): path += "?\(existing)"
        case (nil, let query?) where !query.isEmpty: path += "?\(query)"
        default: break
        }
        var fields = headerFields
        defaultHeaders.apply(to: &fields)
        return HTTPRequest(method: method, scheme: scheme, authority: authority, path: path, headerFields: fields)
    }
}
