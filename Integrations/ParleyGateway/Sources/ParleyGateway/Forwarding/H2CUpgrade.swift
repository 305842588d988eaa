import HTTPTypes
import NIOCore
import NIOHTTP1

/// The upgrade of an HTTP/1.1 connection to h2c (RFC 7540 §3.2) with its first request, as
/// `curl --http2` and `nghttp -u` ask for it; ``HTTPTypesServerCodec`` drives it.
///
/// A first request with an `Upgrade` field the gateway does not take is answered over HTTP/1.1
/// (RFC 9110 §7.8 lets a server ignore `Upgrade`), with that field dropped. When its `Connection`
/// names `upgrade`, the connection then closes after the answer, as after any such request
/// (``RequestHeadPolicy``). The gateway takes an upgrade to h2c from an HTTP/1.1 request that:
/// - names `Upgrade` and `HTTP2-Settings` in `Connection`, and `h2c` in `Upgrade`;
/// - has exactly one `HTTP2-Settings`, a valid SETTINGS payload (RFC 7540 §3.2.1 forbids the
///   upgrade without one or with more; an invalid one would fail the HTTP/2 connection);
/// - has no body (no `Transfer-Encoding`, no `Content-Length` but 0): the upgraded request is
///   stream 1, closed from the client's side, so a body could only be buffered;
/// - passes the gateway's ``RequestHeadPolicy`` (a refused head gets its answer over HTTP/1.1).
///
/// The upgrade answers `101 Switching Protocols` (`connection: upgrade`, `upgrade: h2c`, as NIO's
/// upgrade handler wrote it), replaces the HTTP/1.1 handlers with the pipeline an h2c connection
/// by prior knowledge gets, and hands the request to it as stream 1 (``UpgradedRequest``),
/// answered like any other stream. Later requests never upgrade.
struct H2CUpgrade {
    let pipeline: ConnectionPipeline
    let policy: RequestHeadPolicy

    /// The request as stream 1 when the gateway upgrades it to h2c, or `nil`.
    func request(_ request: HTTPRequest, version minor: Int, client: String?,
                 allocator: ByteBufferAllocator) -> UpgradedRequest? {
        let connection = UpgradedRequest.tokens(request.headerFields[values: .connection])
        guard minor == 1, connection.contains("upgrade"), connection.contains("http2-settings"),
              UpgradedRequest.tokens(request.headerFields[values: .upgrade]).contains("h2c"),
              !request.headerFields.contains(.transferEncoding),
              request.headerFields[values: .contentLength].allSatisfy({
                  Substring($0).trimmingCharacters(inSpacesAndTabs: ()) == "0"
              }),
              (try? policy.admit(request, from: client)) != nil else { return nil }
        return UpgradedRequest(request, allocator: allocator)
    }

    /// Answers `101`, then replaces the HTTP/1.1 handlers (the codec at `context` among them,
    /// which hands the bytes it holds on as it leaves) with an h2c connection's.
    func switchProtocols(context: ChannelHandlerContext, with request: UpgradedRequest) throws {
        var head = context.channel.allocator.buffer(capacity: 72)
        head.writeStaticString("HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: h2c\r\n\r\n")
        context.writeAndFlush(NIOAny(IOData.byteBuffer(head)), promise: nil)
        let handlers = context.pipeline.syncOperations
        // The HTTP/1.1 handlers after the codec have seen nothing of this connection yet.
        let http1: [any ChannelHandler.Type] = [RequestHeadGuard.self, ProxyHandler.self]
        for type in http1 {
            handlers.removeHandler(context: try handlers.context(handlerType: type), promise: nil)
        }
        try pipeline.configureHTTP2(context.channel, upgradedRequest: request)
        handlers.removeHandler(context: context, promise: nil)
    }
}

/// Removed from an upgraded connection before the first request reaches it, when it holds nothing.
extension ProxyHandler: RemovableChannelHandler {}
