public import Hummingbird
import HTTPTypes
public import Parley
public import ParleyHTTP
import NIOCore

/// A Hummingbird `RequestDecoder` that picks the format by the request's `Content-Type`.
///
/// It reads at most `ParleyServer.maxRequestBodyBytes` (more is 413), undoes a
/// `Content-Encoding` the middleware left in place, and decodes through the format's own
/// `Decodable` path. A missing or unsupported `Content-Type` is 415 with an `Accept` field, a
/// malformed one 400, a body that does not fit the type 400 naming the coding path: each thrown
/// as a ``ParleyProblem``, so the answer is a problem document even without ``ParleyMiddleware``.
public struct ParleyRequestDecoder: RequestDecoder, Sendable {
    /// The formats, codings and limits.
    public let server: ParleyServer

    /// Creates a decoder.
    public init(server: ParleyServer) {
        self.server = server
    }

    /// Decodes the request body into `type`.
    ///
    /// - Throws: ``ParleyProblem`` (400, 413, 415); 413 for a body over `ParleyServer.maxRequestBodyBytes`.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request,
                                     context: some RequestContext) async throws -> T {
        let body = try await server.collectBody(of: request)
        do {
            return try server.decode(T.self, from: body, of: request.head)
        } catch {
            throw ParleyProblem(error, server: server)
        }
    }

    /// Decodes the request body to a value tree.
    ///
    /// - Throws: As ``decode(_:from:context:)`` does.
    public func decodeValue(from request: Request) async throws -> Parley.Value {
        let body = try await server.collectBody(of: request)
        do {
            return try server.decodeValue(body, of: request.head)
        } catch {
            throw ParleyProblem(error, server: server)
        }
    }
}

extension ParleyServer {
    /// The request's body, at most ``maxRequestBodyBytes``.
    ///
    /// - Throws: ``ParleyProblem`` with ``ParleyError/Code/limitExceeded`` (413) for a longer body.
    func collectBody(of request: Request) async throws -> [UInt8] {
        do {
            return Array(try await request.body.collect(upTo: maxRequestBodyBytes).readableBytesView)
        } catch is NIOTooManyBytesError {
            let limit = FormatError.Limit(name: "maxRequestBodyBytes", maximum: maxRequestBodyBytes, actual: nil)
            let error = ParleyError(.limitExceeded, "the request body is over \(maxRequestBodyBytes) bytes",
                                    limit: limit)
            throw ParleyProblem(error, server: self)
        }
    }
}
