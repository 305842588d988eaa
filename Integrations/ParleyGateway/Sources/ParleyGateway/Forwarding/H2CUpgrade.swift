import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// The upgrade of an HTTP/1.1 connection to h2c (RFC 7540 §3.2) with its first request, as
/// `curl --http2` and `nghttp -u` ask for it. NIO's `HTTPServerUpgradeHandler` (which only ever
/// looks at a connection's first request) drives it with this upgrader; an
/// ``H2CUpgradeScreen`` before it lets through only the upgrades the gateway takes.
///
/// The upgrade answers `101 Switching Protocols` (`Connection: Upgrade`, `Upgrade: h2c`), replaces
/// the HTTP/1.1 handlers with the pipeline an h2c connection by prior knowledge gets, and hands the
/// request to it as stream 1 (``UpgradedRequest``), answered like any other stream.
struct H2CUpgrader: HTTPServerProtocolUpgrader {
    let pipeline: ConnectionPipeline

    var supportedProtocol: String { "h2c" }
    var requiredUpgradeHeaders: [String] { ["HTTP2-Settings"] }

    func buildUpgradeResponse(channel: any Channel, upgradeRequest: HTTPRequestHead,
                              initialResponseHeaders: HTTPHeaders) -> EventLoopFuture<HTTPHeaders> {
        channel.eventLoop.makeSucceededFuture(initialResponseHeaders)
    }

    func upgrade(context: ChannelHandlerContext, upgradeRequest: HTTPRequestHead) -> EventLoopFuture<Void> {
        context.eventLoop.makeCompletedFuture {
            // The screen let the request through, so its settings and head convert.
            guard let request = UpgradedRequest(upgradeRequest, allocator: context.channel.allocator) else {
                throw ChannelError.inappropriateOperationForState
            }
            let handlers = context.pipeline.syncOperations
            // The HTTP/1.1 handlers after NIO's have seen nothing of this connection yet.
            let http1: [any ChannelHandler.Type] = [HTTPTypesServerCodec.self, RequestHeadGuard.self,
                                                    ProxyHandler.self]
            for type in http1 {
                handlers.removeHandler(context: try handlers.context(handlerType: type), promise: nil)
            }
            try pipeline.configureHTTP2(context.channel, upgradedRequest: request)
        }
    }
}

/// Removed from an upgraded connection before the first request reaches it, when it holds nothing.
extension ProxyHandler: RemovableChannelHandler {}

/// Before NIO's upgrade handler, on a connection's first request: a request with an `Upgrade` field
/// the gateway does not take is answered over HTTP/1.1 (RFC 9110 §7.8 lets a server ignore
/// `Upgrade`), with that field dropped; when `Connection` names `Upgrade`, the connection closes
/// after the answer (NIO's HTTP/1.1 decoder reads nothing past such a request). The gateway takes an
/// upgrade to h2c from an HTTP/1.1 request that:
/// - names `Upgrade` and `HTTP2-Settings` in `Connection`, and `h2c` in `Upgrade`;
/// - has exactly one `HTTP2-Settings`, a valid SETTINGS payload (RFC 7540 §3.2.1 forbids the
///   upgrade without one or with more; an invalid one would fail the HTTP/2 connection);
/// - has no body (no `Transfer-Encoding`, no `Content-Length` but 0): the upgraded request is
///   stream 1, closed from the client's side, so a body could only be buffered;
/// - passes the gateway's ``RequestHeadPolicy`` (a refused head gets its answer over HTTP/1.1).
///
/// It leaves the pipeline after the first head: later requests never upgrade.
final class H2CUpgradeScreen: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let policy: RequestHeadPolicy

    init(policy: RequestHeadPolicy) {
        self.policy = policy
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let connection = UpgradedRequest.tokens(head.headers["connection"])
        if head.headers.contains(name: "upgrade"),
           !takes(head, connection: connection, client: context.channel.remoteAddress?.ipAddress) {
            head.headers.remove(name: "upgrade")
            if connection.contains("upgrade") { head.headers.add(name: "connection", value: "close") }
            context.fireChannelRead(wrapInboundOut(.head(head)))
        } else {
            context.fireChannelRead(data)
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// Whether the gateway upgrades this request to h2c.
    private func takes(_ head: HTTPRequestHead, connection: [String], client: String?) -> Bool {
        guard head.version == .http1_1, connection.contains("upgrade"), connection.contains("http2-settings"),
              UpgradedRequest.tokens(head.headers["upgrade"]).contains("h2c"),
              head.headers["transfer-encoding"].isEmpty,
              head.headers["content-length"].allSatisfy({
                  Substring($0).trimmingCharacters(inSpacesAndTabs: ()) == "0"
              }),
              UpgradedRequest(head, allocator: ByteBufferAllocator()) != nil,
              let request = try? HTTPRequest(head, secure: false, splitCookie: false) else { return false }
        return (try? policy.admit(request, from: client)) != nil
    }
}
