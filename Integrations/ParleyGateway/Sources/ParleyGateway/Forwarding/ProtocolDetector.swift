import NIOCore

/// The first handler of a client connection: reads until its first bytes tell HTTP/2's connection
/// preface (h2c by prior knowledge) from anything else (HTTP/1.1), sets the connection up for that
/// protocol, hands the bytes read so far on, and removes itself.
///
/// An HTTP/1.1 request differs from the preface by its first or second byte, so it waits for
/// nothing. A client that sends no decision within the header timeout is treated as HTTP/1.1,
/// whose head guard then closes the connection (silently when nothing was sent, with a 408 when
/// a head had started).
final class ProtocolDetector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// HTTP/2's client connection preface (RFC 9113 §3.4).
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    private let pipeline: ConnectionPipeline
    private var received: ByteBuffer?
    private var timer: Scheduled<Void>?
    private let connected = NIODeadline.now()
    private var decided = false

    init(pipeline: ConnectionPipeline) {
        self.pipeline = pipeline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        guard !decided else {
            context.fireChannelRead(data)
            return
        }
        if received == nil {
            received = buffer
        } else {
            received!.writeBuffer(&buffer)
        }
        guard let received else { return }
        let prefix = received.readableBytesView.prefix(Self.preface.count)
        if !prefix.elementsEqual(Self.preface.prefix(prefix.count)) {
            decide(context, http2: false)
        } else if prefix.count == Self.preface.count {
            decide(context, http2: true)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, !decided {
            // Graceful shutdown before the first request: nothing to finish.
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: pipeline.headerTimeout) { [self] in
            guard !decided else { return }
            decide(context, http2: false)
        }
    }

    /// Sets the connection up for its protocol, passes on what was read, and leaves the pipeline.
    private func decide(_ context: ChannelHandlerContext, http2: Bool) {
        decided = true
        timer?.cancel()
        do {
            if http2 {
                try pipeline.configureHTTP2(context.channel)
            } else {
                let left = pipeline.headerTimeout - (NIODeadline.now() - connected)
                try pipeline.configureHTTP1(context.channel, firstHeadTimeout: max(left, .zero))
            }
        } catch {
            context.close(promise: nil)
            return
        }
        if let received {
            self.received = nil
            context.fireChannelRead(wrapInboundOut(received))
            context.fireChannelReadComplete()
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
