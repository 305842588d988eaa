public import Hummingbird
import Parley
public import ParleyHTTP

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

    /// Encodes `value` for `request`, scanning its `Accept` fields once for the reply and, when it
    /// fails, the problem.
    ///
    /// - Throws: ``ParleyProblem`` (406 when no acceptable format can encode the value, 400 for a
    ///   malformed `Accept`, 500 when the value itself cannot be encoded).
    public func encode(_ value: some Encodable, from request: Request,
                       context: some RequestContext) throws -> Response {
        let accept = AcceptField(request.head.headerFields)
        do {
            return Response(try server.reply(encoding: value, for: request.head, accepting: accept))
        } catch {
            throw ParleyProblem(error, server: server, accepting: accept)
        }
    }
}
