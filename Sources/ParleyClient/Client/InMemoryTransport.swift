public import HTTPTypes
import Parley
public import ParleyHTTP

/// A transport that answers from memory: a closure, or a table of routes. For tests, previews
/// and offline work.
///
/// ```swift
/// let transport = InMemoryTransport(routes: [
///     .init(.get, "/v1/users/7"): .init(status: .ok, contentType: "application/json", body: #"{"id":7}"#),
/// ])
/// let client = Client(baseURL: URL(string: "https://api.example.com/v1/")!, transport: transport, registry: registry)
/// ```
///
/// The handler receives the request body in memory (a multipart form produced in full, up to
/// `maxRequestBodyBytes`).
public struct InMemoryTransport: HTTPTransport {
    /// Computes a response for a request and its body bytes.
    public typealias Handler = @Sendable (HTTPRequest, [UInt8]) async throws -> (HTTPResponse, [UInt8])

    /// A method and a path (without the query) to answer.
    public struct Route: Hashable, Sendable {
        /// The method.
        public var method: HTTPRequest.Method
        /// The path, without `?query`.
        public var path: String

        /// Creates a route.
        public init(_ method: HTTPRequest.Method, _ path: String) {
            self.method = method
            self.path = path
        }
    }

    /// A canned response.
    public struct CannedResponse: Sendable {
        /// The response head.
        public var response: HTTPResponse
        /// The body.
        public var body: [UInt8]

        /// Creates a response with a status, an optional `Content-Type` and a UTF-8 body.
        public init(
            status: HTTPResponse.Status, contentType: String? = nil, body: String = "", headerFields: HTTPFields = [:]
        ) {
            var fields = headerFields
            if let contentType { fields[.contentType] = contentType }
            self.response = HTTPResponse(status: status, headerFields: fields)
            self.body = Array(body.utf8)
        }

        /// Creates a response from a head and body bytes.
        public init(response: HTTPResponse, body: [UInt8]) {
            self.response = response
            self.body = body
        }
    }

    /// The largest request body handed to the handler. Default 64 MiB.
    public var maxRequestBodyBytes: Int
    private let handler: Handler

    /// Creates a transport that asks `handler` for every response.
    public init(maxRequestBodyBytes: Int = 64 << 20, handler: @escaping Handler) {
        self.maxRequestBodyBytes = maxRequestBodyBytes
        self.handler = handler
    }

    /// Creates a transport answering `routes`; any other request gets `404` with a
    /// `text/plain` body naming it.
    public init(routes: [Route: CannedResponse]) {
        self.init { request, _ in
            let path = request.path.map { String($0.prefix { $0 != "?" }) } ?? "/"
            if let canned = routes[Route(request.method, path)] { return (canned.response, canned.body) }
            let missing = CannedResponse(status: .notFound, contentType: "text/plain; charset=utf-8",
                                         body: "no route for \(request.method.rawValue) \(path)")
            return (missing.response, missing.body)
        }
    }

    public func send(_ request: HTTPRequest, body: RequestBody?) async throws -> (HTTPResponse, [UInt8]) {
        try await handler(request, try body?.collect(maxBytes: maxRequestBodyBytes) ?? [])
    }
}
