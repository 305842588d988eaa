import NIOCore
import NIOHTTP2

/// After NIO's connection manager on an h2c client connection: bounds graceful shutdown's wait for
/// the client. On graceful shutdown the manager sends `GOAWAY` and a PING, and only once the client
/// acknowledges the PING sends its last `GOAWAY` and closes when the open streams are answered; it
/// waits for that acknowledgement without limit (its grace time starts after it), so a client that
/// never sends one (stalled, broken or hostile) would hold the connection, and the gateway's
/// shutdown, forever. Without an acknowledgement within `timeout`, the connection is closed.
final class ShutdownAcknowledgementDeadline: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame

    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, timer == nil {
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { context.close(promise: nil) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The gateway sends no PING but the shutdown's (no keep-alive pings), so any acknowledgement is its.
        if case .ping(_, ack: true) = unwrapInboundIn(data).payload { timer?.cancel() }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        context.fireChannelInactive()
    }
}
