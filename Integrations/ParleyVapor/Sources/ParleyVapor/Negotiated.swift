import HTTPTypes
public import Parley
import ParleyHTTP
public import Vapor

/// A response in the format the request's `Accept` prefers, among the application's registry.
///
/// Return it from a route: the body is encoded by `ParleyServer.reply(with:for:)` (the core's
/// `Registry.reply(with:for:)`), with `Content-Type` (`charset=utf-8` for
/// textual formats) and `Vary: Accept`. When nothing acceptable is available it throws a 406
/// ``Parley/ParleyError`` listing the available types, and an `Accept` with no valid element a
/// 400 one; ``ParleyMiddleware`` answers both as problem documents.
///
/// ```swift
/// app.get("users", ":id") { req in Negotiated(encoding: User(id: 7, name: "Ada")) }
/// app.get("tree") { _ in Negotiated(["id": 7, "tags": ["a", "b"]]) }
/// ```
public struct Negotiated: ResponseEncodable, AsyncResponseEncodable, Sendable {
    enum Body: Sendable {
        case value(Value)
        case encodable(any Encodable & Sendable)
    }

    let body: Body
    /// The response status.
    public var status: HTTPResponseStatus
    /// Fields added to the response after `Content-Type` and `Vary`.
    public var headers: HTTPHeaders

    /// A negotiated response holding a value tree.
    public init(_ value: Value, status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]) {
        self.body = .value(value)
        self.status = status
        self.headers = headers
    }

    /// A negotiated response holding an `Encodable`, turned into a value tree by the server's
    /// `ParleyServer.valueEncoder`.
    public init(encoding value: some Encodable & Sendable, status: HTTPResponseStatus = .ok,
                headers: HTTPHeaders = [:]) {
        self.body = .encodable(value)
        self.status = status
        self.headers = headers
    }

    /// Encodes the body for `request`.
    ///
    /// - Throws: ``Parley/ParleyError`` with `ParleyError.Code.notAcceptable` (406),
    ///   `ParleyError.Code.invalidRequest` (400, malformed `Accept`) or
    ///   `ParleyError.Code.encodingFailed`; ``ParleyVaporError/noServer``.
    public func encodeResponse(for request: Request) async throws -> Response {
        try response(for: request)
    }

    /// Encodes the body for `request` on its event loop: a route whose closure is not `async`
    /// answers without a hop into Swift concurrency.
    public func encodeResponse(for request: Request) -> EventLoopFuture<Response> {
        request.eventLoop.makeCompletedFuture { try response(for: request) }
    }

    private func response(for request: Request) throws -> Response {
        let server = try request.parley.server()
        let head = request.parley.httpRequest
        let accept = request.parley.accept
        let reply = switch body {
        case .value(let value): try server.reply(with: value, for: head, accepting: accept)
        case .encodable(let encodable): try server.reply(encoding: encodable, for: head, accepting: accept)
        }
        return Response(status: status, reply: reply, extraHeaders: headers, allocator: request.byteBufferAllocator)
    }
}

extension Response {
    /// A response carrying a ``Parley/Reply``: its body and fields, then `extraHeaders`.
    convenience init(status: HTTPResponseStatus, reply: Reply, extraHeaders: HTTPHeaders = [:],
                     allocator: ByteBufferAllocator) {
        self.init(status: status, fields: reply.headerFields, body: reply.body, allocator: allocator)
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
    }

    /// A response with swift-http-types fields and a body of bytes.
    convenience init(status: HTTPResponseStatus, fields: HTTPFields, body: [UInt8], allocator: ByteBufferAllocator) {
        var headers = HTTPHeaders()
        for field in fields { headers.add(name: field.name.rawName, value: field.value) }
        var buffer = allocator.buffer(capacity: body.count)
        buffer.writeBytes(body)
        self.init(status: status, headers: headers, body: .init(buffer: buffer, byteBufferAllocator: allocator))
    }
}
