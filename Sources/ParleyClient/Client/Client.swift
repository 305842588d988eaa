public import Foundation
public import HTTPTypes
public import Parley
public import ParleyHTTP
import ParleyCompression
import ParleyJSON

/// A small async HTTP client: builds requests with a `RequestSerializer`, sends them through
/// an `HTTPTransport` (the core's protocol) and decodes responses with a `ResponseSerializer`, all chosen per
/// request. An immutable, `Sendable` value: copy it to change a setting.
///
/// ```swift
/// let client = Client(baseURL: URL(string: "https://api.example.com/v1")!, registry: .linked)
/// let user = try await client.get("users/7", as: User.self)            // GET /v1/users/7
/// let created = try await client.post("users", parameters: ["name": "Ada"])  // JSON body
/// print(created.response.status, created.value)
/// ```
///
/// Relative paths resolve against `baseURL` with AFNetworking's rule: a base URL with a
/// path is treated as a directory (`…/v1` becomes `…/v1/`), so `users` gives `…/v1/users`,
/// `/users` gives `…/users` and an absolute URL is used as it is.
///
/// Every failure is a `ParleyError`: `ParleyError.Code.invalidRequest` before sending,
/// `ParleyError.Code.transportFailed` when no response came, and the response serializer's
/// errors (`ParleyError.Code.unacceptableStatus` …) carrying the response and body.
public struct Client: Sendable {
    /// The URL relative paths resolve against, or `nil` to require absolute URLs.
    public var baseURL: URL?
    /// Sends requests.
    public var transport: any HTTPTransport
    /// The formats responses decode with (and, by default, request bodies encode with).
    public var registry: Registry
    /// Builds requests unless a call passes its own: any `RequestSerializer`.
    public var requestSerializer: any RequestSerializer

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: The URL relative paths resolve against.
    ///   - transport: Default ``URLSessionTransport``.
    ///   - registry: Formats for responses; default ``defaultRegistry`` (JSON and the core's
    ///     text, form and raw formats, as AFNetworking's default serializer decoded JSON).
    ///   - requestSerializer: Any `RequestSerializer`. Default: a `ParameterRequestSerializer`
    ///     with JSON bodies through `registry`, an `Accept` field listing what `registry` decodes
    ///     and an `Accept-Encoding` field listing every coding the client undoes
    ///     (`ContentCoding.acceptEncodingValue`: `gzip, deflate, br, zstd`).
    public init(
        baseURL: URL? = nil, transport: any HTTPTransport = URLSessionTransport(),
        registry: Registry = Client.defaultRegistry,
        requestSerializer: (any RequestSerializer)? = nil
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.registry = registry
        self.requestSerializer =
            requestSerializer
            ?? ParameterRequestSerializer(
                registry: registry,
                defaultHeaders: DefaultHeaders(registry: registry, acceptEncoding: ContentCoding.acceptEncodingValue))
    }

    /// The registry a client uses unless given one: JSON, then the core's built-in formats.
    public static let defaultRegistry = Registry(formats: [JSONFormat()] + Registry.builtInFormats)

    /// The absolute URL for `path` (see the type's discussion for the resolution rule).
    ///
    /// - Throws: `ParleyError.Code.invalidRequest` when `path` is not a URL reference.
    public func url(for path: String) throws(ParleyError) -> URL {
        let base = baseURL.map { base -> URL in
            guard !base.path.isEmpty, !base.absoluteString.hasSuffix("/") else { return base }
            return URL(string: base.absoluteString + "/") ?? base
        }
        guard let url = URL(string: path, relativeTo: base) else {
            throw ParleyError(.invalidRequest, "invalid URL '\(path)'")
        }
        return url.absoluteURL
    }

    // MARK: Sending

    /// Builds, sends and decodes a request with parameters (see `ParameterRequestSerializer`).
    public func send<S: ResponseSerializer>(
        _ method: HTTPRequest.Method, _ path: String, parameters: Value? = nil, headerFields: HTTPFields = [:],
        requestSerializer: (any RequestSerializer)? = nil, responseSerializer: S
    ) async throws(ParleyError) -> ClientResponse<S.Output> {
        let serializer = requestSerializer ?? self.requestSerializer
        let request = try serializer.makeRequest(
            method: method, url: url(for: path), parameters: parameters, headerFields: headerFields)
        return try await send(request, responseSerializer: responseSerializer)
    }

    /// Builds, sends and decodes a request with `Encodable` parameters.
    public func send<Parameters: Encodable, S: ResponseSerializer>(
        _ method: HTTPRequest.Method, _ path: String, encoding parameters: Parameters, headerFields: HTTPFields = [:],
        requestSerializer: (any RequestSerializer)? = nil, responseSerializer: S
    ) async throws(ParleyError) -> ClientResponse<S.Output> {
        let serializer = requestSerializer ?? self.requestSerializer
        let request = try serializer.makeRequest(
            method: method, url: url(for: path), encoding: parameters, headerFields: headerFields)
        return try await send(request, responseSerializer: responseSerializer)
    }

    /// Uploads a multipart form (default `POST`).
    public func upload<S: ResponseSerializer>(
        _ path: String, multipart form: MultipartFormData, method: HTTPRequest.Method = .post,
        headerFields: HTTPFields = [:],
        requestSerializer: (any RequestSerializer)? = nil, responseSerializer: S
    ) async throws(ParleyError) -> ClientResponse<S.Output> {
        let serializer = requestSerializer ?? self.requestSerializer
        let request = try serializer.makeRequest(
            method: method, url: url(for: path), multipart: form, headerFields: headerFields)
        return try await send(request, responseSerializer: responseSerializer)
    }

    /// Sends a built request and decodes the response.
    ///
    /// A body still carrying `Content-Encoding` gzip, deflate, br or zstd (transports that do
    /// not decompress) is decompressed by the response pipeline's first step, within the matched
    /// format's body limit; the response serializer then runs the rest of the pipeline.
    public func send<S: ResponseSerializer>(_ serialized: SerializedRequest, responseSerializer: S)
        async throws(ParleyError) -> ClientResponse<S.Output> {
        var response: HTTPResponse
        var body: [UInt8]
        do {
            (response, body) = try await transport.send(serialized.request, body: serialized.body)
        } catch let error as ParleyError {
            throw error
        } catch {
            throw ParleyError(
                .transportFailed,
                "\(serialized.request.method.rawValue) \(Self.describe(serialized.request)) failed: \(error)",
                underlying: [error])
        }
        do {
            let undone = try ContentCodingStep(.standard).undo(body, fields: response.headerFields, registry: registry)
            response.headerFields = undone.headerFields
            body = undone.body
        } catch {
            throw error.with(response: response, body: body)
        }
        do {
            let value = try responseSerializer.serialize(response, body: body, request: serialized.request)
            return ClientResponse(value: value, response: response, body: body, request: serialized.request)
        } catch let error as ParleyError {
            throw error.response == nil ? error.with(response: response, body: body) : error
        } catch {
            throw ParleyError(.decodingFailed, "response serializer failed: \(error)", response: response, body: body,
                              receivedContentType: response.headerFields[.contentType], underlying: [error])
        }
    }

    static func describe(_ request: HTTPRequest) -> String {
        "\(request.scheme ?? "")://\(request.authority ?? "")\(request.path ?? "")"
    }
}

/// A decoded response: the value, the response head, the raw body and the request sent.
public struct ClientResponse<Output: Sendable>: Sendable {
    /// The decoded value.
    public var value: Output
    /// The response head.
    public var response: HTTPResponse
    /// The body as received (after any `Content-Encoding` the transport removed).
    public var body: [UInt8]
    /// The request that was sent.
    public var request: HTTPRequest
}
