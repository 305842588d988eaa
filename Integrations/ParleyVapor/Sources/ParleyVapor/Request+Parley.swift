public import HTTPTypes
public import Parley
public import ParleyHTTP
public import Vapor

extension Request {
    /// Parley for this request: its body decoded through the application's ``ParleyServer``, its
    /// head as swift-http-types.
    public var parley: Parley { Parley(request: self) }

    /// Parley's view of a request.
    public struct Parley: Sendable {
        let request: Request

        /// The application's server side (``Vapor/Application/Parley/use(_:)-(ParleyServer)``).
        ///
        /// - Throws: ``ParleyVaporError/noServer`` when Parley was not installed.
        public func server() throws -> ParleyServer {
            guard let server = request.application.parley.server else { throw ParleyVaporError.noServer }
            return server
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

        /// The request's `Accept` fields, scanned once per request (on first use) and kept with it:
        /// its reply and, when that fails, its problem answer negotiate the same value.
        public var accept: AcceptField {
            if let scanned = request.storage[AcceptKey.self] { return scanned }
            let values = request.headers[.accept]
            let scanned = AcceptField(values.isEmpty ? nil : values.joined(separator: ", "))
            request.storage[AcceptKey.self] = scanned
            return scanned
        }

        private struct AcceptKey: StorageKey {
            typealias Value = AcceptField
        }

        /// Decodes the collected body by its `Content-Type` into a value tree
        /// (`ParleyServer.decodeValue(_:of:)`): suffix types such as `application/vnd.api+json`
        /// included; an empty body without `Content-Type` is `.null`.
        ///
        /// - Throws: ``Parley/ParleyError``: 415, 400 (malformed, or a malformed `Content-Type`),
        ///   413; ``ParleyVaporError``.
        public func decode() throws -> Value {
            try server().decodeValue(body, of: httpRequest)
        }

        /// Decodes the collected body by its `Content-Type` into `type`
        /// (`ParleyServer.decode(_:from:of:)`, JSON without building a value tree).
        ///
        /// - Throws: as ``decode()``, and `ParleyError.Code.decodingFailed` (400) naming
        ///   the coding path when the body does not fit `type`.
        public func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try server().decode(T.self, from: body, of: httpRequest)
        }

        private var body: [UInt8] {
            request.body.data.map { Array($0.readableBytesView) } ?? []
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

    /// Parley was not installed with `app.parley.use(_:)`.
    public static let noServer = ParleyVaporError(
        description: "Parley is not installed: call app.parley.use(registry) first")
}
