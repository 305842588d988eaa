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
    /// The connection's screen, which built the request of the upgrade it let through.
    let screen: H2CUpgradeScreen

    var supportedProtocol: String { "h2c" }
    var requiredUpgradeHeaders: [String] { ["HTTP2-Settings"] }

    func buildUpgradeResponse(channel: any Channel, upgradeRequest: HTTPRequestHead,
                              initialResponseHeaders: HTTPHeaders) -> EventLoopFuture<HTTPHeaders> {
        channel.eventLoop.makeSucceededFuture(initialResponseHeaders)
    }

    func upgrade(context: ChannelHandlerContext, upgradeRequest: HTTPRequestHead) -> EventLoopFuture<Void> {
        context.eventLoop.makeCompletedFuture {
            guard let request = screen.takeUpgradedRequest() else { throw ChannelError.inappropriateOperationForState }
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
/// `Upgrade`), with that field dropped so that NIO's handler passes it on. When its `Connection`
/// names `upgrade`, the connection then closes after the answer, as after any such request
/// (``RequestHeadPolicy``). The gateway takes an upgrade to h2c from an HTTP/1.1 request that:
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
    /// The request of the upgrade let through, built once here and taken by ``H2CUpgrader``.
    private var upgradedRequest: UpgradedRequest?

    init(policy: RequestHeadPolicy) {
        self.policy = policy
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.headers.contains(name: "upgrade") {
            upgradedRequest = upgrade(for: head, client: context.channel.remoteAddress?.ipAddress,
                                      allocator: context.channel.allocator)
            if upgradedRequest == nil { head.headers.remove(name: "upgrade") }
            context.fireChannelRead(wrapInboundOut(.head(head)))
        } else {
            context.fireChannelRead(data)
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// The request the upgrade was taken with, once.
    func takeUpgradedRequest() -> UpgradedRequest? {
        defer { upgradedRequest = nil }
        return upgradedRequest
    }

    /// The request as stream 1 when the gateway upgrades it to h2c, or `nil`.
    private func upgrade(for head: HTTPRequestHead, client: String?,
                         allocator: ByteBufferAllocator) -> UpgradedRequest? {
        let connection = UpgradedRequest.tokens(head.headers["connection"])
        guard head.version == .http1_1, connection.contains("upgrade"), connection.contains("http2-settings"),
              UpgradedRequest.tokens(head.headers["upgrade"]).contains("h2c"),
              head.headers["transfer-encoding"].isEmpty,
              head.headers["content-length"].allSatisfy({
                  Substring($0).trimmingCharacters(inSpacesAndTabs: ()) == "0"
              }),
              let request = try? HTTPRequest(head, secure: false, splitCookie: false),
              (try? policy.admit(request, from: client)) != nil else { return nil }
        return UpgradedRequest(request, allocator: allocator)
    }
}
