import NIOCore
import NIOHTTP1

/// On an HTTP/2 stream, the check HTTP/1.1's decoder makes of a request head: more than `maxBytes`
/// of field names and values, or more than `maxFields` fields, is reported as the decoder reports
/// it (`HTTPParserError.headerOverflow`), so the ``RequestHeadGuard`` answers it 431 as it does on
/// HTTP/1.1. The request's parts are not passed on.
final class HeadSizeLimit: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let maxBytes: Int
    private let maxFields: Int
    private var refused = false

    init(maxBytes: Int, maxFields: Int) {
        self.maxBytes = maxBytes
        self.maxFields = maxFields
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data) {
            let bytes = head.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
            if bytes > maxBytes || head.headers.count > maxFields {
                refused = true
                context.fireErrorCaught(HTTPParserError.headerOverflow)
                return
            }
        }
        context.fireChannelRead(data)
    }
}
