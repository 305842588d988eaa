import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// What an HTTP/2 stream's heads need between swift-nio-extras' frame codec
/// (`HTTP2FramePayloadToHTTPServerCodec`, which makes HTTP types of the frames) and the
/// ``RequestHeadGuard``, so that a stream's request reaches the guard as an HTTP/1.1 request does:
/// - a head over `maxBytes` of field names and values (`Host` counted for `:authority`, as HTTP/1.1
///   sends it), or over `maxFields` fields, is reported as HTTP/1.1's decoder reports it
///   (`HTTPParserError.headerOverflow`, answered 431 by the guard) and the request's parts are not
///   passed on;
/// - the scheme is `http` (the gateway's main port is cleartext), and a request without
///   `:authority` takes its first `Host` field for it, as HTTP/1.1's conversion does;
/// - the fields HTTP/2 forbids (RFC 9113 §8.2.2: `Connection` and the fields only a connection
///   carries) are left out of the heads and trailers the stream writes (the proxy's `Connection:
///   close` is HTTP/1.1's).
final class HTTP2StreamHeads: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let maxBytes: Int
    private let maxFields: Int
    private var refused = false

    init(maxBytes: Int, maxFields: Int) {
        self.maxBytes = maxBytes
        self.maxFields = maxFields
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(var request) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        guard fits(request) else {
            refused = true
            context.fireErrorCaught(HTTPParserError.headerOverflow)
            return
        }
        if request.method != .connect { request.scheme = "http" }
        if request.authority == nil,
           let index = request.headerFields.firstIndex(where: { $0.name == RequestHeadPolicy.host }) {
            request.authority = request.headerFields[index].value
            request.headerFields.remove(at: index)
        }
        context.fireChannelRead(wrapInboundOut(.head(request)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response) where Self.hasConnectionFields(response.headerFields):
            response.headerFields.removeAll { Self.isConnectionField($0.name) }
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .end(var trailers?) where Self.hasConnectionFields(trailers):
            trailers.removeAll { Self.isConnectionField($0.name) }
            context.write(wrapOutboundOut(.end(trailers)), promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }

    /// Whether `request`'s fields are within the limits HTTP/1.1's decoder sets.
    private func fits(_ request: HTTPRequest) -> Bool {
        var bytes = request.authority.map { 4 + $0.utf8.count } ?? 0
        var count = request.authority == nil ? 0 : 1
        for field in request.headerFields {
            bytes += field.name.rawName.utf8.count + field.withUnsafeBytesOfValue { $0.count }
            count += 1
        }
        return bytes <= maxBytes && count <= maxFields
    }

    private static func hasConnectionFields(_ fields: HTTPFields) -> Bool {
        fields.contains { isConnectionField($0.name) }
    }

    /// The fields swift-nio-http2 refuses to send (RFC 9113 §8.2.2), as its HTTP/1 conversion
    /// leaves them out: `TE` is one only with a value other than `trailers`, which no answer has.
    private static func isConnectionField(_ name: HTTPField.Name) -> Bool {
        switch name.canonicalName.utf8.count {
        case 2: name == .te
        case 7: name == .upgrade
        case 10: name == .connection || name == ForwardedFields.keepAlive
        case 16: name == ForwardedFields.proxyConnection
        case 17: name == .transferEncoding
        default: false
        }
    }
}
