import HTTPTypes
import NIOCore
import NIOHTTP2
import NIOHTTPTypes

/// What an upstream connection reports to the exchange using it, on their shared event loop.
protocol UpstreamConnectionDelegate: AnyObject {
    /// A response part arrived.
    func upstream(received part: HTTPResponsePart)
    /// A read burst ended: what was written to the client can be flushed.
    func upstreamReadComplete()
    /// The connection failed or closed before the response ended (`error` says why, when known).
    func upstreamFailed(_ error: (any Error)?)
    /// The connection can take more writes (`true`) or asks the writer to wait (`false`).
    func upstreamWritabilityChanged(_ writable: Bool)
}

/// One HTTP/1.1 connection to an upstream, or one stream of an h2c connection to it (a
/// ``MultiplexedUpstream``), the last handler of its channel: it hands response
/// parts to the exchange that holds it (its delegate), and reads from the socket only while
/// that exchange's client can take writes, so a slow client slows the upstream down rather
/// than filling memory (the `read` interception of swift-nio's glue handler).
final class UpstreamConnection: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPResponsePart
    typealias OutboundIn = HTTPRequestPart
    typealias OutboundOut = HTTPRequestPart

    /// Where the connection goes, for pooling.
    let key: UpstreamKey
    /// Whether the channel is an HTTP/2 stream: it serves one exchange and is not pooled.
    let isStream: Bool
    /// The exchange using the connection; `nil` while it idles in the pool.
    weak var delegate: (any UpstreamConnectionDelegate)?
    /// The h2c connection a stream belongs to.
    weak var multiplexed: MultiplexedUpstream?
    /// The connection's place among its upstream's busy ones, while an exchange holds it (HTTP/1.1).
    var slot: UpstreamSlot?
    /// The pool that made the connection (HTTP/1.1), which forgets it when it closes while idle.
    weak var pool: UpstreamPool?
    /// Whether the connection idles in its pool.
    var isIdle = false
    private var context: ChannelHandlerContext?
    private var readsPaused = false
    private var readPending = false
    private(set) var isActive = false
    /// How many exchanges the connection served before (0 for a new one).
    var served = 0
    /// The HTTP/1.1 codec before it in the pipeline (none for an h2c stream).
    private let http1: UpstreamHTTP1Codec?

    init(key: UpstreamKey, isStream: Bool = false, pool: UpstreamPool? = nil, http1: UpstreamHTTP1Codec? = nil) {
        self.key = key
        self.isStream = isStream
        self.pool = pool
        self.http1 = http1
    }

    /// The end-to-end field lines of the response head just handed to the delegate, when it came
    /// over HTTP/1.1 and they stand for it (``ForwardedFieldLines``).
    var fieldLines: ForwardedFieldLines? { http1?.fieldLines }

    /// Whether the answer to the next request written has its field lines written (HTTP/1.1): only
    /// for an exchange that may forward them.
    var writesFieldLines: Bool {
        get { http1?.writesFieldLines ?? false }
        set { http1?.writesFieldLines = newValue }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        isActive = context.channel.isActive
        http1?.connection = self
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        http1?.connection = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        isActive = true
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        isActive = false
        giveSlot()
        let delegate = delegate
        self.delegate = nil
        if isIdle { pool?.forget(self) }
        delegate?.upstreamFailed(nil)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received(unwrapInboundIn(data))
    }

    /// A response part arrived (from the HTTP/1.1 codec straight, or through the pipeline).
    func received(_ part: HTTPResponsePart) {
        guard let delegate else {
            // Bytes on an idle connection: nothing asked for them, so it cannot be reused.
            context?.close(promise: nil)
            return
        }
        delegate.upstream(received: part)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        delegate?.upstreamReadComplete()
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let delegate = delegate
        self.delegate = nil
        delegate?.upstreamFailed(wasRefused(context) ? UpstreamStreamRefused() : error)
        context.close(promise: nil)
    }

    /// Whether the channel is a stream the upstream's `GOAWAY` left unprocessed (its ID is past the
    /// last one the upstream said it may process, RFC 9113 §6.8).
    private func wasRefused(_ context: ChannelHandlerContext) -> Bool {
        guard isStream, let last = multiplexed?.goAwayLastStreamID,
              let id = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)
        else { return false }
        return id > last
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        delegate?.upstreamWritabilityChanged(context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if readsPaused {
            readPending = true
        } else {
            context.read()
        }
    }

    // MARK: Used by the exchange

    var isWritable: Bool { context?.channel.isWritable ?? false }

    /// Stops reading from the upstream until ``resumeReads()``.
    func pauseReads() { readsPaused = true }

    /// Reads again, issuing the read held back meanwhile.
    func resumeReads() {
        guard readsPaused else { return }
        readsPaused = false
        if readPending, let context {
            readPending = false
            context.read()
        }
    }

    /// Writes a request's head whose fields are `fields` (``UpstreamFields``), not its own: an
    /// HTTP/1.1 codec writes them straight into the head's bytes; on a stream they are made first.
    func write(head request: HTTPRequest, fields: UpstreamFields) {
        guard let http1 else {
            var request = request
            fields.write(into: &request.headerFields)
            return write(.head(request))
        }
        http1.nextHeadFields = fields
        write(.head(request))
    }

    func write(_ part: HTTPRequestPart, flush: Bool = false) {
        guard let context else { return }
        if let http1 {
            http1.write(part, promise: nil)
            if flush { context.flush() }
        } else if flush {
            context.writeAndFlush(wrapOutboundOut(part), promise: nil)
        } else {
            context.write(wrapOutboundOut(part), promise: nil)
        }
    }

    func flush() { context?.flush() }

    func close() {
        giveSlot()
        context?.close(promise: nil)
    }

    /// Hands the connection back to the pool that made it, to reuse (``UpstreamPool/release(_:)``).
    /// A stream, which no pool keeps, only lets its slot go: it closes once both its ends are sent.
    func returnToPool() {
        if let pool { return pool.release(self) }
        delegate = nil
        giveSlot()
        if !isStream { close() }
    }

    /// Gives the connection's slot back: its exchange let it go.
    func giveSlot() {
        slot?.give()
        slot = nil
    }
}

/// An upstream's address and protocol, as the pool keys it.
struct UpstreamKey: Hashable, Sendable {
    var host: String
    var port: Int
    var upstreamProtocol = GatewayConfiguration.UpstreamProtocol.http1
}
