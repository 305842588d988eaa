public import HTTPTypes
public import Parley
public import ParleyHTTP

/// The server side of the README: answer in the format the client asked for, read what it sent.
public struct Bookshop: Sendable {
    /// The linked formats (JSON, YAML, XML, CSV, property lists, MessagePack) and the core's own.
    public let registry: Registry
    /// The server side over them: replies by `Accept`, request bodies by `Content-Type`; 415 for a
    /// body with a `Content-Encoding` (`contentCodings: .none` accepts none).
    public let server: ParleyServer

    /// A shop answering with the formats this module links (`Registry.linked`, made by the
    /// registration plugin for this target).
    public init() {
        self.registry = .linked
        self.server = ParleyServer(registry: .linked, contentCodings: .none)
    }

    /// `value` in the format the request's `Accept` prefers; 406 (``ParleyError/Code/notAcceptable``)
    /// listing the types that can hold it when none acceptable can.
    public func answer<Value: Encodable>(_ value: Value, to request: HTTPRequest) throws(ParleyError) -> Reply {
        try server.reply(encoding: value, for: request)
    }

    /// The response head and body to send for `value`: the reply, or a 406 naming what is available.
    public func respond<Value: Encodable>(with value: Value, to request: HTTPRequest) -> (HTTPResponse, [UInt8]) {
        do {
            let reply = try answer(value, to: request)
            return (reply.response(), reply.body)
        } catch let error where error.code == .notAcceptable {
            let available = error.acceptableTypes.map(\.description).joined(separator: ", ")
            return (HTTPResponse(status: error.impliedStatus), Array("available: \(available)".utf8))
        } catch {
            return (HTTPResponse(status: .internalServerError), Array(error.message.utf8))
        }
    }

    /// A request body as a `Book`, by its `Content-Type`; 415 when no linked format decodes it, or
    /// when it carries a `Content-Encoding`.
    public func receive(_ body: [UInt8], of request: HTTPRequest) throws(ParleyError) -> Book {
        try server.decode(Book.self, from: body, of: request)
    }
}
