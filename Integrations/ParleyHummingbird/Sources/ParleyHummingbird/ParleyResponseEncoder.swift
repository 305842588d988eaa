public import Hummingbird
import Parley
import ParleyHTTP

/// A Hummingbird `ResponseEncoder` that answers an `Encodable` in the format the request's
/// `Accept` prefers, with `Content-Type` and `Vary: Accept`; nothing acceptable is a 406
/// problem listing the available types, a malformed `Accept` a 400 problem.
public struct ParleyResponseEncoder: ResponseEncoder, Sendable {
    /// The formats.
    public let server: ParleyServer

    /// Creates an encoder.
    public init(server: ParleyServer) {
        self.server = server
    }

    /// Encodes `value` for `request`.
    ///
    /// - Throws: ``ParleyProblem`` (406, 400, or 500 when the chosen format cannot encode the value).
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        do {
            return Response(try server.reply(encoding: value, for: request.head))
        } catch {
            throw ParleyProblem(error, server: server)
        }
    }
}
