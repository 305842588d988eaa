import Hummingbird
import HummingbirdCore
import NIOCore

/// The admin port: `GET /health` (200 `ok` while the gateway serves) and `GET /metrics` (the
/// Prometheus text exposition); anything else is 404. It listens apart from the main port, so
/// the proxied API keeps every path.
struct AdminResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let metrics: GatewayMetrics

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
        }
        switch request.uri.path {
        case "/health":
            return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: "ok\n")))
        case "/metrics":
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        default:
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(
                                string: "the admin port serves /health and /metrics\n")))
        }
    }
}

extension AdminResponder {
    /// The admin port's HTTP/1.1 server, with the main port's header and body timeouts
    /// (``RequestHeadGuard`` without the main port's head policy): a head not finished within the
    /// header timeout is 408, and a connection idle for it is closed silently.
    static func server(_ configuration: GatewayConfiguration) -> HTTPServerBuilder {
        let headerTimeout = TimeAmount.nanoseconds(configuration.headerTimeout.nanoseconds)
        let bodyTimeout = TimeAmount.nanoseconds(configuration.bodyTimeout.nanoseconds)
        return .http1(configuration: .init(additionalChannelHandlers: [
            RequestHeadGuard(timeout: headerTimeout, bodyTimeout: bodyTimeout, policy: nil),
        ]))
    }
}
