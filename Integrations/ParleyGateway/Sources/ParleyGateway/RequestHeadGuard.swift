import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Guards a connection's requests, in the channel pipeline before Hummingbird reads them:
/// - a client that has started a head and not finished it within `timeout` of connecting, or of
///   its previous response, gets 408 and the connection is closed (slow heads, "slowloris", cannot
///   hold it); a connection on which no byte of a next request arrived in that time (an idle
///   keep-alive one) is closed silently: a 408 is only for a request that started;
/// - a request body that goes `bodyTimeout` without a byte closes the connection, after a 408
///   when no answer has started (a stalled upload cannot hold it either);
/// - a head over the decoder's field limit gets 431 and the connection is closed, where the
///   framework would answer 400;
/// - every head goes through ``RequestHeadPolicy``, when one is given: the admitted head, rewritten (its path
///   normalised), goes on; a refused one is answered (400, 405, …) once the responses before
///   it have ended, and the connection is closed.
///
/// On an HTTP/2 stream (`isStream`) there is no head to wait for and no idle time: the stream
/// comes with its whole head and ends with its response (the connection's own idle timeout closes
/// an idle h2c connection), so only the body timer is armed.
///
/// The answers carry a small problem document (RFC 9457) in JSON: no head was read, so there
/// is no `Accept` to negotiate with.
final class RequestHeadGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private let bodyTimeout: TimeAmount
    private let policy: RequestHeadPolicy?
    /// A refused head waiting for the responses before it to end; everything read after it is dropped.
    private var refusal: RequestHeadPolicy.Refusal?
    /// Fires when the connection may have idled for the header timeout. Armed when the
    /// connection goes idle and left armed while requests come and go: when it fires early it
    /// waits again for the rest (from ``idleSince``), so a keep-alive request costs no timer.
    private var timer: Scheduled<Void>?
    /// When the connection last went idle (no request open), and how long it may stay so.
    private var idleSince = NIODeadline.now()
    private var idleWait = TimeAmount.zero
    /// Requests whose head arrived and whose response has not ended.
    private var open = 0
    private var answered = false
    /// Fires when the body being received may have gone silent; armed at the end of a read
    /// that left a body open (a request whose head and end came in one read needs none). Body
    /// parts only move ``lastBodyRead``: the timer, when it fires early, waits again for the
    /// rest, so a streamed upload costs no timer per part.
    private var bodyTimer: Scheduled<Void>?
    /// Whether a request body is being received (from its head to its end).
    private var bodyOpen = false
    private var lastBodyRead = NIODeadline.now()
    /// Whether a response head has been written since the last response ended.
    private var responding = false
    /// Whether bytes of a request arrived since the head timer was armed: a read while no request
    /// was open that the decoder made no part of (a head under way).
    private var headStarted = false
    /// Whether the decoder passed on a part during the read under way.
    private var decodedThisRead = false

    /// The client's IP address (when known), read at the connection's first head: it never changes.
    private var client: String?
    private var clientKnown = false
    /// What the connection keeps of its last exchange for the next (its HTTP/2 streams share it).
    private let memory: ConnectionMemory

    /// The wait for the first head, when it differs from `timeout` (part of it already spent).
    private var firstTimeout: TimeAmount?
    /// Whether the channel is an HTTP/2 stream: no header or idle timer.
    private let isStream: Bool

    /// The HTTP/1.1 codec right before the guard, which hands it request parts and takes response
    /// parts from it by a call (``HTTPTypesServerCodec/headGuard``); `nil` on an HTTP/2 stream.
    private var codec: HTTPTypesServerCodec?
    /// The proxy handler right after the guard, which takes request parts from it and hands it
    /// response parts by a call (``ProxyHandler/received(_:)``, ``write(_:promise:)``); `nil`
    /// before another handler (the admin port's), where parts go through the pipeline.
    var proxy: ProxyHandler?
    private var context: ChannelHandlerContext?

    init(timeout: TimeAmount, bodyTimeout: TimeAmount, policy: RequestHeadPolicy? = RequestHeadPolicy(),
         firstTimeout: TimeAmount? = nil, memory: ConnectionMemory = ConnectionMemory(), isStream: Bool = false,
         codec: HTTPTypesServerCodec? = nil) {
        self.codec = codec
        self.timeout = timeout
        self.memory = memory
        self.firstTimeout = firstTimeout
        self.bodyTimeout = bodyTimeout
        self.policy = policy
        self.isStream = isStream
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        codec?.headGuard = self
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        bodyTimer?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        proxy = nil
        codec?.headGuard = nil
        codec = nil
        timer?.cancel()
        bodyTimer?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received(unwrapInboundIn(data))
    }

    /// A request part arrived: from the codec by a call, or through the pipeline.
    func received(_ part: HTTPRequestPart) {
        decodedThisRead = true
        // After a refusal the connection closes: what comes after it is dropped.
        guard refusal == nil, !answered, let context else { return }
        var part = part
        switch part {
        case .head(let head):
            if !clientKnown {
                client = context.channel.remoteAddress?.ipAddress
                clientKnown = true
            }
            if let policy {
                do {
                    let admitted = try policy.admit(head, from: client, last: &memory.lastHead,
                                                    lines: &memory.clientFieldLines)
                    memory.appendedProxyFields = admitted.appended
                    part = .head(admitted.head)
                } catch {
                    memory.clientFieldLines = nil
                    refuse(context, error)
                    return
                }
            }
            open += 1
            bodyOpen = true
            lastBodyRead = .now()
        case .body:
            lastBodyRead = .now()
        case .end:
            bodyOpen = false
        }
        if let proxy {
            proxy.received(part)
        } else {
            context.fireChannelRead(wrapInboundOut(part))
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Bytes the decoder holds without a part yet: a head has started (bytes of a next
        // request read together with a whole one are not seen; that connection closes silently).
        if open == 0, !decodedThisRead { headStarted = true }
        decodedThisRead = false
        if bodyOpen, bodyTimer == nil, !answered { armBody(context, at: lastBodyRead + bodyTimeout) }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        write(unwrapOutboundIn(data), context: context, promise: promise)
    }

    /// Writes a response part from the proxy handler after the guard (``proxy``).
    func write(_ part: HTTPResponsePart, promise: EventLoopPromise<Void>?) {
        guard let context else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        write(part, context: context, promise: promise)
    }

    private func write(_ part: HTTPResponsePart, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        switch part {
        case .head(let head) where head.status.kind != .informational:
            responding = true
        case .end:
            responding = false
            open = max(0, open - 1)
            if open == 0, let refusal {
                send(part, context, promise: promise)
                answer(context, refusal.status, refusal.detail, fields: refusal.fields)
                return
            }
            if open == 0 { arm(context) }
        default:
            break
        }
        send(part, context, promise: promise)
    }

    /// Writes a response part on: to the codec by a call, when there is one (``codec``), else
    /// through the pipeline.
    private func send(_ part: HTTPResponsePart, _ context: ChannelHandlerContext,
                      promise: EventLoopPromise<Void>? = nil) {
        if let codec {
            codec.write(part, promise: promise)
        } else {
            context.write(wrapOutboundOut(part), promise: promise)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let parserError = error as? HTTPParserError, parserError == .headerOverflow, open == 0 {
            answer(context, .requestHeaderFieldsTooLarge, "the request's header fields are over the gateway's limit")
            return
        }
        context.fireErrorCaught(error)
    }

    /// The connection is idle from now: a timer fires once it has been for `idleWait` (the
    /// timer already armed, for an earlier idle time, checks again when it fires).
    private func arm(_ context: ChannelHandlerContext) {
        guard !isStream else { return }
        headStarted = false
        idleSince = .now()
        idleWait = firstTimeout ?? timeout
        firstTimeout = nil
        if timer == nil { armIdle(context, at: idleSince + idleWait) }
    }

    private func armIdle(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        let seconds = Double(timeout.nanoseconds) / 1e9
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            guard open == 0, !answered else { return }   // armed again when the connection idles
            let deadline = idleSince + idleWait
            if NIODeadline.now() < deadline {
                armIdle(context, at: deadline)
                return
            }
            guard headStarted else {
                // An idle connection: nothing was asked, so nothing is answered.
                answered = true
                context.close(promise: nil)
                return
            }
            answer(context, .requestTimeout, "no complete request head within \(seconds) s")
        }
    }

    /// Waits until `deadline` for the request body, then checks how long it has been silent.
    private func armBody(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        bodyTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            bodyTimer = nil
            guard bodyOpen, !answered else { return }
            let silent = NIODeadline.now() - lastBodyRead
            if silent < bodyTimeout {
                armBody(context, at: lastBodyRead + bodyTimeout)
                return
            }
            let seconds = Double(bodyTimeout.nanoseconds) / 1e9
            if responding {
                // An answer is under way: it cannot become a 408 any more.
                context.close(promise: nil)
            } else {
                answer(context, .requestTimeout, "the request body sent nothing for \(seconds) s")
            }
        }
    }

    /// Answers a refused head now, or once the responses before it have ended.
    private func refuse(_ context: ChannelHandlerContext, _ refusal: RequestHeadPolicy.Refusal) {
        timer?.cancel()
        timer = nil
        self.refusal = refusal
        if open == 0 { answer(context, refusal.status, refusal.detail, fields: refusal.fields) }
    }

    /// Writes a problem answer and closes the connection, once.
    private func answer(_ context: ChannelHandlerContext, _ status: HTTPResponse.Status, _ detail: String,
                        fields: HTTPFields = [:]) {
        guard !answered else { return }
        answered = true
        timer?.cancel()
        bodyTimer?.cancel()
        var escaped = ""
        for character in detail {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        let body = #"{"type":"about:blank","title":"\#(status.reasonPhrase)","status":\#(status.code),"#
            + #""detail":"\#(escaped)"}"#
        var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
        buffer.writeString(body)
        var head = HTTPResponse(status: status, headerFields: [.contentType: "application/problem+json",
                                                                .contentLength: String(buffer.readableBytes),
                                                                .connection: "close"])
        head.headerFields.append(contentsOf: fields)
        send(.head(head), context)
        send(.body(buffer), context)
        let ended = context.eventLoop.makePromise(of: Void.self)
        send(.end(nil), context, promise: ended)
        context.flush()
        ended.futureResult.assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
