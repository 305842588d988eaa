public import Parley
public import Vapor

/// A response in the format the request's `Accept` prefers, among the application's registry.
///
/// Return it from a route: the body is encoded by ``Parley/Registry/reply(with:for:)``, with
/// `Content-Type` (`charset=utf-8` for textual formats) and `Vary: Accept`. When nothing
/// acceptable is available it throws a 406 ``Parley/ParleyError`` listing the available types,
/// which ``ParleyMiddleware`` answers as a problem document.
///
/// ```swift
/// app.get("users", ":id") { req in Negotiated(encoding: User(id: 7, name: "Ada")) }
/// app.get("tree") { _ in Negotiated(["id": 7, "tags": ["a", "b"]]) }
/// ```
public struct Negotiated: AsyncResponseEncodable, Sendable {
    enum Body: Sendable {
        case value(Value)
        case encodable(any Encodable & Sendable, ValueEncoder)
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

    /// A negotiated response holding an `Encodable`, turned into a value tree by `encoder`.
    public init(encoding value: some Encodable & Sendable, encoder: ValueEncoder = ValueEncoder(),
                status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]) {
        self.body = .encodable(value, encoder)
        self.status = status
        self.headers = headers
    }

    /// Encodes the body for `request`.
    ///
    /// - Throws: ``Parley/ParleyError`` with ``Parley/ParleyError/Code/notAcceptable`` (406) or
    ///   ``Parley/ParleyError/Code/encodingFailed``; ``ParleyVaporError/noRegistry``.
    public func encodeResponse(for request: Request) async throws -> Response {
        let registry = try request.parley.registry()
        let value: Value
        switch body {
        case .value(let tree):
            value = tree
        case .encodable(let encodable, let encoder):
            do { value = try encoder.encode(encodable) } catch {
                throw ParleyError(.encodingFailed, "cannot encode \(type(of: encodable)): \(error)", underlying: [error])
            }
        }
        let reply = try registry.reply(with: value, for: request.parley.httpRequest)
        return Response(status: status, reply: reply, extraHeaders: headers, allocator: request.byteBufferAllocator)
    }
}

extension Response {
    /// A response carrying a ``Parley/Reply``: its body and fields, then `extraHeaders`.
    convenience init(status: HTTPResponseStatus, reply: Reply, extraHeaders: HTTPHeaders = [:],
                     allocator: ByteBufferAllocator) {
        var headers = HTTPHeaders()
        for field in reply.headerFields { headers.add(name: field.name.rawName, value: field.value) }
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        var buffer = allocator.buffer(capacity: reply.body.count)
        buffer.writeBytes(reply.body)
        self.init(status: status, headers: headers, body: .init(buffer: buffer, byteBufferAllocator: allocator))
    }
}
