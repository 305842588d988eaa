import Hummingbird
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
                            body: ResponseBody(byteBuffer: ByteBuffer(string: "the admin port serves /health and /metrics\n")))
        }
    }
}
