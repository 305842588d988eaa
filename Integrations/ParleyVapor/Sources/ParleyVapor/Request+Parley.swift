public import HTTPTypes
public import Parley
public import Vapor

extension Request {
    /// Parley for this request: decoding its body through the registry, its head as swift-http-types.
    public var parley: Parley { Parley(request: self) }

    /// Parley's view of a request.
    public struct Parley: Sendable {
        let request: Request

        /// The application's registry (``Vapor/Application/Parley/use(_:contentCodings:maxBodySize:)``).
        ///
        /// - Throws: ``ParleyVaporError`` when no registry was installed.
        public func registry() throws -> Registry {
            guard let registry = request.application.parley.registry else { throw ParleyVaporError.noRegistry }
            return registry
        }

        /// The request's method, path and header fields as a swift-http-types request, the form
        /// the core's server functions read. Fields whose names are not valid tokens are left out.
        public var httpRequest: HTTPRequest {
            var fields = HTTPFields()
            for (name, value) in request.headers {
                if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
            }
            return HTTPRequest(method: HTTPRequest.Method(request.method.rawValue) ?? .get, scheme: nil,
                               authority: nil, path: request.url.path, headerFields: fields)
        }

        /// Decodes the (collected) body by its `Content-Type` into a value tree, with the
        /// core's ``Parley/Registry/decodeRequestBody(_:of:)``: suffix types such as
        /// `application/vnd.api+json` included, an empty body without `Content-Type` is `.null`.
        ///
        /// - Throws: ``Parley/ParleyError`` (415, 400, 413), or ``ParleyVaporError``.
        public func decode() throws -> Value {
            let body = request.body.data.map { Array($0.readableBytesView) } ?? []
            return try registry().decodeRequestBody(body, of: httpRequest)
        }

        /// Decodes the (collected) body by its `Content-Type` into `type`.
        ///
        /// - Throws: as ``decode()``, and ``Parley/ParleyError/Code/decodingFailed`` naming the
        ///   coding path when the value does not fit `type`.
        public func decode<T: Decodable>(_ type: T.Type, decoder: ValueDecoder = ValueDecoder()) throws -> T {
            let registry = try registry()
            let body = request.body.data ?? ByteBuffer()
            guard let contentType = request.headers.first(name: .contentType).flatMap({ MediaType($0) }) else {
                // No usable Content-Type: the core's path answers (415, or `.null` for an empty body).
                let value = try registry.decodeRequestBody(Array(body.readableBytesView), of: httpRequest)
                return try decoder.decode(T.self, from: value)
            }
            return try body.withUnsafeReadableBytes { bytes in
                try registry.decodeContent(T.self, from: bytes, contentType: contentType, decoder: decoder)
            }
        }
    }
}

/// A misuse of ParleyVapor.
public struct ParleyVaporError: AbortError, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// Always 500: the server is misconfigured.
    public var status: HTTPResponseStatus { .internalServerError }
    /// ``description``.
    public var reason: String { description }

    /// No registry was installed with `app.parley.use(_:)`.
    public static let noRegistry = ParleyVaporError(description: "no Parley registry: call app.parley.use(registry) first")
}
