import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix
import Parley
import ParleyFixtures
import ParleyHTTP
import ParleyOpenAPI

/// Answers the requests of one client connection, the last handler of its channel: each
/// request goes to an upstream connection taken from its event loop's pool, and the response
/// streams back, is transcoded, or is refused (the rules are in ``Transcoder``).
///
/// Bodies move as the `ByteBuffer`s that arrive, with backpressure both ways: the client is read
/// only while the upstream can take writes, the upstream only while the client can. A request
/// body is held until it ends or passes ``ForwardingContext/requestBufferBytes``, so a slow
/// upload takes no upstream connection while it trickles. Requests are answered one at a time:
/// the parts of a pipelined request wait, and the client is not read, until the answer before
/// it is sent.
final class ProxyHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let shared: ForwardingContext
    private let pool: UpstreamPool
    private var context: ChannelHandlerContext?
    private var exchange: Exchange?
    private var readPending = false
    /// Set once the connection is closing: no further request is answered.
    private var closing = false
    /// Since when the client's side has not taken writes (nil while it does).
    private var unwritableSince: NIODeadline?
    /// Fires when the client may have taken no byte for the send timeout while writes wait: armed
    /// when the side first stops taking writes and left armed when it takes them again, so that a
    /// large body's writability changes cost no timer each; when it fires early it waits again.
    private var sendTimer: Scheduled<Void>?
    /// Fires when the exchange's upstream may be late (its head) or silent (its body): armed
    /// when the first wait starts and left armed across exchanges, so that a keep-alive
    /// connection's requests cost no timer each; when it fires early it waits again.
    private var watchdog: Scheduled<Void>?
    private var watchdogDeadline = NIODeadline.distantFuture
    /// Parts of pipelined requests that arrived while the one before was being answered.
    private var queued: CircularBuffer<HTTPRequestPart> = []
    /// What the connection keeps of its last exchange for the next (its HTTP/2 streams share it).
    private let memory: ConnectionMemory

    /// What a response plan is made from, besides the route's transcoder and mode (its path prefix).
    struct PlanKey: Equatable {
        var status: Int
        var contentType: String?
        var method: HTTPRequest.Method
        var accept: String?
        var route: String?
    }

    /// The head guard right before the handler in its pipeline, which it hands response parts to
    /// and takes request parts from by a call rather than through the pipeline (where each part is
    /// boxed and cast back). Held strongly, each by the other, until the handler is removed.
    private var headGuard: RequestHeadGuard?

    /// A handler for a connection, or for a stream of an HTTP/2 connection with its `memory`,
    /// after its `headGuard`.
    init(shared: ForwardingContext, pool: UpstreamPool, memory: ConnectionMemory = ConnectionMemory(),
         headGuard: RequestHeadGuard? = nil) {
        self.shared = shared
        self.pool = pool
        self.memory = memory
        self.headGuard = headGuard
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        headGuard?.proxy = self
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        headGuard?.proxy = nil
        headGuard = nil
    }

    /// Writes a response part: to the head guard before the handler by a call, when there is one
    /// (``headGuard``), else through the pipeline.
    private func send(_ part: HTTPResponsePart, _ context: ChannelHandlerContext,
                      promise: EventLoopPromise<Void>? = nil) {
        if let headGuard {
            headGuard.write(part, promise: promise)
        } else {
            context.write(wrapOutboundOut(part), promise: promise)
        }
    }

    /// Writes and flushes a response's end: the future completes once it is written.
    private func sendEnd(_ context: ChannelHandlerContext) -> EventLoopFuture<Void> {
        let ended = context.eventLoop.makePromise(of: Void.self)
        send(.end(nil), context, promise: ended)
        context.flush()
        return ended.futureResult
    }

    // MARK: The client's side

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received(unwrapInboundIn(data))
    }

    /// A request part arrived: from the head guard by a call, or through the pipeline.
    func received(_ part: HTTPRequestPart) {
        let waits = !queued.isEmpty || exchange?.requestState == .complete
        guard case .head(var head) = part else {
            if waits { queued.append(part) } else { handle(part) }
            return
        }
        // What came with the head through the connection's memory: the proxy fields that go after
        // its fields, and its field lines (HTTP/1.1).
        let appended = memory.appendedProxyFields.take()
        let lines = memory.clientFieldLines.take()
        guard !waits else {
            // A pipelined head waits with the proxy fields among its own, and goes from its fields.
            if let appended { head.headerFields.append(contentsOf: appended.fields) }
            queued.append(.head(head))
            return
        }
        handle(part, appended: appended, lines: lines)
    }

    private func handle(_ part: HTTPRequestPart, appended: RequestHeadPolicy.ForwardedElement? = nil,
                        lines: ClientFieldLines? = nil) {
        switch part {
        case .head(let head):
            guard exchange == nil, !closing else { return }
            begin(head, appended: appended, lines: lines)
        case .body(let buffer):
            exchange?.receivedBody(buffer)
            guard let exchange else { return }
            bodyArrived(buffer, exchange)
        case .end:
            guard let exchange else { return }
            requestEnded(exchange)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        exchange?.upstream?.flush()
        watchUpload()
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        if !queued.isEmpty {
            readPending = true
        } else if let exchange, exchange.requestState == .streaming, exchange.responseState != .done,
                  !(exchange.upstream?.isWritable ?? false) {
            readPending = true
        } else {
            context.read()
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            unwritableSince = nil
            exchange?.upstream?.resumeReads()
        } else {
            // The client stopped reading: what waits is bounded by the paused upstream, and the
            // connection by the send timeout (nginx's `send_timeout`).
            let now = NIODeadline.now()
            unwritableSince = now
            if sendTimer == nil { watchSending(until: now + shared.sendTimeout) }
        }
        context.fireChannelWritabilityChanged()
    }

    /// Closes the connection at `deadline` if its side has not taken writes since the send timeout
    /// before it; waits again when it has taken some since.
    private func watchSending(until deadline: NIODeadline) {
        guard let context else { return }
        sendTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            sendTimer = nil
            guard let since = unwritableSince, let context = self.context else { return }
            guard NIODeadline.now() >= since + shared.sendTimeout else {
                return watchSending(until: since + shared.sendTimeout)
            }
            if let exchange { abandon(exchange, complete: false) }
            closing = true
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        // Graceful shutdown: an idle connection closes now, a busy one after its answer.
        closing = true
        if let exchange {
            exchange.closesAfter = true
        } else {
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        sendTimer?.cancel()
        sendTimer = nil
        watchdog?.cancel()
        watchdog = nil
        closing = true
        if let exchange { abandon(exchange, complete: false) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError || error is HTTP1TypeConversionError, exchange?.responseStarted != true {
            // A request NIO cannot parse: 400, and the connection closes (its framing is lost).
            if let exchange { abandon(exchange, complete: false) }
            closing = true
            let head = HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])
            send(.head(head), context)
            sendEnd(context).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
            return
        }
        if let exchange { abandon(exchange, complete: false) }
        closing = true
        context.close(promise: nil)
    }

    private func resumeClientReads() {
        guard readPending, let context else { return }
        readPending = false
        context.read()
    }

    // MARK: A request

    private func begin(_ head: HTTPRequest, appended: RequestHeadPolicy.ForwardedElement?, lines: ClientFieldLines?) {
        let configuration = shared.configuration
        let route = configuration.route(for: head.path ?? "/")
        // A keep-alive client sends the same `Accept` on each request: the last one's scan is reused.
        let acceptValue = head.headerFields.combinedValue(of: .accept)
        let accept = memory.lastAccept.flatMap { $0.fieldValue == acceptValue ? $0 : nil }
            ?? AcceptField(acceptValue)
        memory.lastAccept = accept
        let exchange = Exchange(head: head, route: route, transcoder: shared.transcoder(forRoute: route?.pathPrefix),
                                accept: accept, configuration: configuration,
                                captureLimit: shared.observer.captureLimit)
        exchange.transcodesRequest = exchange.transcoder.needsRequestTranscoding(
            label: head.headerFields.combinedValue(of: .contentType), types: route?.requestTypes ?? [])
        exchange.contract = shared.contract?.contract(for: route)
        exchange.appendedProxyFields = appended
        exchange.clientFieldLines = lines
        self.exchange = exchange
        if head.headerFields.combinedValue(of: .expect)?.lowercased() == "100-continue", let context {
            // The gateway reads the body before the upstream sees the request: it says go on itself
            // (as nginx does), and the upstream is not asked to.
            send(.head(HTTPResponse(status: .continue)), context)
            context.flush()
        }
    }

    /// Arms the upload timer of a request whose body is still open after a read.
    private func watchUpload() {
        guard let exchange, exchange.uploadTimer == nil, exchange.requestState != .complete, let context else {
            return
        }
        let timeout = shared.configuration.uploadTimeout
        let loop = context.eventLoop.assumeIsolated()
        exchange.uploadTimer = loop.scheduleTask(deadline: exchange.uploadDeadline) { [self] in
            guard self.exchange === exchange, exchange.requestState != .complete, let context = self.context else {
                return
            }
            if exchange.responseStarted {
                abandon(exchange, complete: false)
                closing = true
                context.close(promise: nil)
            } else {
                exchange.requestState = .discarding
                fail(exchange, UploadTimedOut(timeout: timeout))
            }
        }
    }

    private func bodyArrived(_ buffer: ByteBuffer, _ exchange: Exchange) {
        // Answered early: the rest of the body is read and dropped until the connection closes.
        guard exchange.responseState != .done else { return }
        switch exchange.requestState {
        case .buffering:
            exchange.held.append(buffer)
            exchange.heldBytes += buffer.readableBytes
            if exchange.transcodesRequest {
                if exchange.heldBytes > exchange.transcodeLimit {
                    exchange.requestState = .discarding
                    exchange.held = []
                    let limit = exchange.transcodeLimit
                    let message = "the request body is over the gateway's transcoding limit of \(limit) bytes"
                    fail(exchange, ParleyError(.limitExceeded, message))
                }
            } else if exchange.heldBytes > requestHoldLimit(exchange) {
                exchange.requestState = .streaming
                dispatch(exchange)
            }
        case .streaming:
            if let upstream = exchange.upstream {
                upstream.write(.body(buffer))
            } else {
                exchange.held.append(buffer)
            }
        case .discarding, .complete:
            break
        }
    }

    /// The most request-body bytes held before the request streams upstream: the transcoding
    /// limit when its body is checked against the contract (a longer one goes unchecked), else
    /// ``ForwardingContext/requestBufferBytes``.
    private func requestHoldLimit(_ exchange: Exchange) -> Int {
        guard let contract = exchange.contract, contract.requests != .off else { return shared.requestBufferBytes }
        return max(exchange.transcodeLimit, shared.requestBufferBytes)
    }

    private func requestEnded(_ exchange: Exchange) {
        exchange.uploadTimer?.cancel()
        exchange.uploadTimer = nil
        let state = exchange.requestState
        exchange.requestState = .complete
        switch state {
        case .buffering:
            dispatch(exchange)
        case .streaming:
            if let upstream = exchange.upstream {
                upstream.slot?.uploadEnded()
                upstream.write(.end(nil), flush: true)
                requestSent(exchange)
            }
        case .discarding, .complete:
            // Answered already (413, or an early answer): the connection can serve the next one.
            if exchange.responseState == .done { finishRequest(exchange) }
        }
        resumeClientReads()
    }

    // MARK: Upstream

    /// Sends the request upstream: through a pooled connection, or to the replayer.
    private func dispatch(_ exchange: Exchange) {
        exchange.responseState = .waitingHead
        var transcodedType: MediaType?
        if exchange.transcodesRequest {
            let bytes = exchange.held.reduce(into: [UInt8]()) { $0.append(contentsOf: $1.readableBytesView) }
            do {
                let types = exchange.route?.requestTypes ?? []
                let (type, transcoded) = try exchange.transcoder.transcodeRequestBody(
                    bytes, of: exchange.head, to: types, limit: exchange.transcodeLimit)
                transcodedType = type
                exchange.held = [ByteBuffer(bytes: transcoded)]
                exchange.heldBytes = transcoded.count
                exchange.summary.upstreamRequestBody = Array(transcoded.prefix(shared.observer.captureLimit))
                exchange.summary.upstreamRequestByteCount = transcoded.count
            } catch {
                fail(exchange, error)
                return
            }
        }
        var upstreamFields = UpstreamFields(admitted: exchange.head.headerFields,
                                            appended: exchange.appendedProxyFields,
                                            accept: upstreamAccept(exchange), framing: upstreamFraming(exchange))
        // Taken whatever the path: the decoder refills their storage for the next head.
        let lines = exchange.clientFieldLines.take()
        // To an HTTP/1.1 upstream the fields are written straight into the head (from the client's
        // field lines when they came), unless something reads them first: a recording, the
        // replayer, a contract check, a transcoded body's type.
        var fields = HTTPFields()
        if exchange.upstreamProtocol == .http1, shared.observer.recorder == nil, shared.replay == nil,
           exchange.contract == nil, transcodedType == nil {
            upstreamFields.clientLines = lines
            exchange.upstreamFields = upstreamFields
        } else {
            fields = spareUpstreamFields()
            upstreamFields.write(into: &fields)
            if let transcodedType {
                fields[.contentType] = transcodedType.description
                fields[.contentEncoding] = nil
            }
        }
        if exchange.contract != nil, !checkRequestContract(exchange, fields: fields) { return }
        let request: HTTPRequest
        do { request = try upstreamRequest(for: exchange, fields: fields) } catch {
            fail(exchange, error)
            return
        }
        exchange.summary.upstreamRequest = request
        exchange.sentAt = .now
        if let replay = shared.replay {
            self.replay(request, exchange, with: replay)
            return
        }
        guard request.scheme == "http", let host = exchange.upstreamHost else {
            fail(exchange, UpstreamFailure.unreachable(
                "'\(request.scheme ?? "")' upstreams are not supported: the gateway speaks http, TLS ends in front"))
            return
        }
        let timeout = TimeAmount.nanoseconds(exchange.timeout.nanoseconds)
        connect(host, timeout: timeout, request, exchange)
    }

    /// Checks the request as it goes upstream (`fields`, the held body when it is whole) against
    /// the contract; with requests enforced, a violation is answered 400 here and `false` returned.
    private func checkRequestContract(_ exchange: Exchange, fields: HTTPFields) -> Bool {
        guard let contractGuard = shared.contract, let contract = exchange.contract else { return true }
        let body = contract.requests != .off && exchange.requestState == .complete
            ? exchange.held.reduce(into: [UInt8]()) { $0.append(contentsOf: $1.readableBytesView) } : nil
        contractGuard.checkRequest(exchange.head, fields: fields, body: body, limit: exchange.transcodeLimit,
                                   into: contract, last: &memory.lastOperation)
        guard contract.requests == .enforce else { return true }
        let violations = contract.findings.filter(\.isViolation)
        guard violations.isEmpty else {
            fail(exchange, ContractViolation(status: .badRequest, findings: violations))
            return false
        }
        return true
    }

    /// Takes an upstream connection for the exchange, after a slot among the upstream's busy HTTP/1.1
    /// connections, or its uploading h2c streams (waiting up to `timeout` for one when all are taken,
    /// or all an upload may take). A ready request to an h2c upstream takes no slot. A free slot and
    /// an idle connection are taken at once, without waiting on a callback.
    private func connect(_ host: UpstreamKey, timeout: TimeAmount, _ request: HTTPRequest, _ exchange: Exchange) {
        guard host.upstreamProtocol == .http1 || exchange.requestState != .complete, let context else {
            return acquire(host, timeout: timeout, request, exchange, slot: nil)
        }
        let uploading = exchange.requestState != .complete
        if let slot = shared.upstreamSlots.takeNow(host, uploading: uploading) {
            return acquire(host, timeout: timeout, request, exchange, slot: slot)
        }
        shared.upstreamSlots.take(host, uploading: uploading, on: context.eventLoop,
                                  timeout: timeout) { [self] slot in
            guard self.exchange === exchange, exchange.responseState == .waitingHead else {
                var slot = slot
                slot?.give()
                return
            }
            guard let slot else { return fail(exchange, UpstreamFailure.timedOut(exchange.timeout)) }
            acquire(host, timeout: timeout, request, exchange, slot: slot)
        }
    }

    private func acquire(_ host: UpstreamKey, timeout: TimeAmount, _ request: HTTPRequest, _ exchange: Exchange,
                         slot: UpstreamSlot?) {
        if let upstream = pool.takeIdle(host) { return acquired(upstream, request, exchange, slot: slot) }
        pool.acquire(host, timeout: timeout) { [self] result in
            switch result {
            case .failure(let error):
                var slot = slot
                slot?.give()
                guard self.exchange === exchange, exchange.responseState == .waitingHead else { return }
                if case ChannelError.connectTimeout = error {
                    fail(exchange, UpstreamFailure.timedOut(exchange.timeout))
                } else {
                    fail(exchange, UpstreamFailure.unreachable(String(describing: error)))
                }
            case .success(let upstream):
                acquired(upstream, request, exchange, slot: slot)
            }
        }
    }

    /// The exchange has its upstream connection (which holds the slot from now on).
    private func acquired(_ upstream: UpstreamConnection, _ request: HTTPRequest, _ exchange: Exchange,
                          slot: UpstreamSlot?) {
        upstream.slot = slot
        if exchange.requestState == .complete { upstream.slot?.uploadEnded() }
        guard self.exchange === exchange, exchange.responseState == .waitingHead else {
            upstream.close()
            return
        }
        connected(upstream, request, exchange)
    }

    private func connected(_ upstream: UpstreamConnection, _ request: HTTPRequest, _ exchange: Exchange) {
        upstream.delegate = self
        exchange.upstream = upstream
        // Its answer is written from field lines only to an HTTP/1.1 client, and never when checked.
        upstream.writesFieldLines = memory.writesFieldLines
            && exchange.contract?.responseCheck(method: exchange.head.method) == nil
        if let fields = exchange.upstreamFields {
            upstream.write(head: request, fields: fields)
        } else {
            upstream.write(.head(request))
        }
        for buffer in exchange.held { upstream.write(.body(buffer)) }
        if exchange.requestState == .complete, !exchange.retried,
           upstream.isStream || (upstream.served > 0 && Self.idempotent.contains(request.method)) {
            exchange.resendable = exchange.held
        }
        exchange.held = []
        if exchange.requestState == .complete {
            upstream.write(.end(nil), flush: true)
            requestSent(exchange)
        } else {
            upstream.flush()
            if upstream.isWritable { resumeClientReads() }
        }
    }

    /// How long a connection answered before its request body ended reads and drops the rest.
    private static let linger = TimeAmount.seconds(2)

    /// Methods a request may be sent again with (RFC 9110 §9.2.2).
    private static let idempotent: Set<HTTPRequest.Method> = [.get, .head, .options, .put, .delete, .trace]

    /// The whole request is upstream: the wait for the response head starts.
    private func requestSent(_ exchange: Exchange) {
        guard exchange.responseState == .waitingHead else { return }
        let deadline = NIODeadline.now() + .nanoseconds(exchange.timeout.nanoseconds)
        exchange.headDeadline = deadline
        watchUpstream(until: deadline)
    }

    /// Makes sure the watchdog fires by `deadline`.
    private func watchUpstream(until deadline: NIODeadline) {
        guard let context else { return }
        if watchdog != nil {
            guard deadline < watchdogDeadline else { return }
            watchdog?.cancel()
        }
        watchdogDeadline = deadline
        watchdog = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            watchdog = nil
            watchdogDeadline = .distantFuture
            checkUpstream()
        }
    }

    /// The watchdog fired: answers 504 for a head that is late, gives up on a body that has
    /// been silent for the upstream body timeout, or waits again for what is not due yet.
    private func checkUpstream() {
        guard let exchange, let context else { return }
        let now = NIODeadline.now()
        if let deadline = exchange.headDeadline, exchange.responseState == .waitingHead {
            guard now >= deadline else { return watchUpstream(until: deadline) }
            fail(exchange, UpstreamFailure.timedOut(exchange.timeout))
        } else if exchange.watchesBody {
            let deadline = exchange.lastUpstreamRead + shared.upstreamBodyTimeout
            guard now >= deadline else { return watchUpstream(until: deadline) }
            if exchange.responseState == .collecting {
                fail(exchange, UpstreamFailure.stalled)
            } else if exchange.responseState == .streaming {
                abandon(exchange, complete: false)
                closing = true
                context.close(promise: nil)
            }
        }
    }

    private func replay(_ request: HTTPRequest, _ exchange: Exchange, with transport: ReplayTransport) {
        guard let context else { return }
        let promise = context.eventLoop.makePromise(of: (HTTPResponse, [UInt8]).self)
        promise.completeWithTask { try await transport.send(request, body: nil) }
        promise.futureResult.assumeIsolated().whenComplete { [self] result in
            guard self.exchange === exchange, exchange.responseState == .waitingHead else { return }
            switch result {
            case .failure(let error):
                fail(exchange, UpstreamFailure.unreachable("no recording answers it: \(error)"))
            case .success(let (head, body)):
                var head = head
                head.headerFields[.contentLength] = String(body.count)
                upstream(received: .head(head))
                if self.exchange === exchange, !body.isEmpty { upstream(received: .body(ByteBuffer(bytes: body))) }
                if self.exchange === exchange { upstream(received: .end(nil)) }
                upstreamReadComplete()
            }
        }
    }

    /// The request for the upstream: the route's (or the gateway's) upstream, its path followed
    /// by the client's path and query, with `fields`.
    private func upstreamRequest(for exchange: Exchange, fields: HTTPFields) throws(UpstreamFailure) -> HTTPRequest {
        let target = try shared.upstreamTarget(forRoute: exchange.routePrefix).get()
        let path = exchange.head.path ?? "/"
        exchange.upstreamHost = target.key
        // The connection's last upstream request, changed: its storage is reused once the exchange
        // that had it let it go.
        var request = memory.lastUpstreamRequest.take()
            ?? HTTPRequest(method: .get, scheme: nil, authority: nil, path: nil, headerFields: [:])
        // Each setter makes its pseudo-header field anew: what the last request had is left as it is.
        if request.method != exchange.head.method { request.method = exchange.head.method }
        if request.scheme != target.scheme { request.scheme = target.scheme }
        if request.authority != target.authority { request.authority = target.authority }
        let rooted = path.hasPrefix("/") ? path : "/" + path
        let upstreamPath = target.pathPrefix.isEmpty ? rooted : target.pathPrefix + rooted
        if request.path != upstreamPath { request.path = upstreamPath }
        request.headerFields = fields
        memory.lastUpstreamRequest = request
        return request
    }

    /// The fields of the connection's last upstream request, taken out of it: refilled for the next
    /// one, their storage is reused once the exchange that sent them let them go.
    private func spareUpstreamFields() -> HTTPFields {
        var fields = HTTPFields()
        if memory.lastUpstreamRequest != nil { swap(&fields, &memory.lastUpstreamRequest!.headerFields) }
        return fields
    }

    /// The `Accept` field sent upstream for the exchange: the one made for the connection's previous
    /// request when the client's field and the route's transcoder are the same (a keep-alive
    /// client sends the same `Accept` each time), else made anew.
    private func upstreamAccept(_ exchange: Exchange) -> HTTPField? {
        let client = exchange.accept.fieldValue
        let route = exchange.routePrefix
        if let last = memory.lastUpstreamAccept, last.client == client, last.route == route { return last.field }
        let upstream = exchange.transcoder.upstreamAccept(forClient: exchange.accept)
            .map { HTTPField(name: .accept, value: $0) }
        memory.lastUpstreamAccept = .init(client: client, route: route, field: upstream)
        return upstream
    }

    /// How the request's body is framed upstream: a whole body by its length (when the client framed
    /// it, or it has bytes); one still arriving by the client's length, else chunked to an HTTP/1.1
    /// upstream (HTTP/2 frames a body of unknown length itself).
    private func upstreamFraming(_ exchange: Exchange) -> UpstreamFields.Framing {
        let fields = exchange.head.headerFields
        if exchange.requestState == .complete {
            let framed = fields.contains(.contentLength) || fields.contains(.transferEncoding)
            return framed || exchange.heldBytes > 0 ? .length(String(exchange.heldBytes)) : .unframed
        }
        if let length = fields.combinedValue(of: .contentLength) { return .length(length) }
        return exchange.upstreamProtocol == .http1 ? .chunked : .unframed
    }

    /// What to do with the upstream's response `head`: the plan made for the connection's previous
    /// answer when everything it was made from is the same (its status and `Content-Type`, and the
    /// request's method, `Accept` and route), else made anew.
    private func plan(for head: HTTPResponse, _ exchange: Exchange) -> ResponsePlan {
        let key = PlanKey(status: head.status.code, contentType: head.headerFields.combinedValue(of: .contentType),
                          method: exchange.head.method, accept: exchange.accept.fieldValue,
                          route: exchange.routePrefix)
        if let last = memory.lastPlan, last.key == key { return last.plan }
        let plan = exchange.transcoder.plan(for: head, method: exchange.head.method, accept: exchange.accept,
                                            mode: exchange.transcodeMode)
        memory.lastPlan = .init(key: key, plan: plan)
        return plan
    }

    // MARK: Answers

    /// Answers `exchange` with the problem document for `error`, and drops its upstream.
    private func fail(_ exchange: Exchange, _ error: any Error) {
        let answer = problem(for: error, exchange: exchange)
        dropUpstream(exchange)
        respond(exchange, head: answer.response, body: answer.body)
    }

    /// Writes a whole answer (its head's field `lines` first, when given: ``ForwardedFieldLines``).
    /// An answer already under way cannot change: the connection closes.
    private func respond(_ exchange: Exchange, head: HTTPResponse, body: [UInt8], lines: ForwardedFieldLines? = nil) {
        respond(exchange, head: head, buffer: body.isEmpty ? nil : ByteBuffer(bytes: body), lines: lines)
    }

    /// ``respond(_:head:body:lines:)`` with a body already in a buffer (`nil`: none), written as it is.
    private func respond(_ exchange: Exchange, head: HTTPResponse, buffer body: ByteBuffer?,
                         lines: ForwardedFieldLines? = nil) {
        guard let context, self.exchange === exchange else { return }
        exchange.stopWatchingUpstream()
        guard !exchange.responseStarted else {
            abandon(exchange, complete: false)
            closing = true
            context.close(promise: nil)
            return
        }
        var head = head
        let count = body?.readableBytes ?? 0
        let length = String(count)
        // Set only when it differs: a head whose length is right already is not copied.
        if head.headerFields.combinedValue(of: .contentLength) != length { head.headerFields[.contentLength] = length }
        if exchange.requestState != .complete { exchange.closesAfter = true }
        if exchange.closesAfter { head.headerFields[.connection] = "close" }
        exchange.responseStarted = true
        exchange.responseState = .done
        exchange.summary.response = head
        exchange.summary.responseBody = body.map { Array($0.readableBytesView.prefix(shared.observer.captureLimit)) }
            ?? []
        exchange.summary.bytesOut = count
        // Taken by the codec as it writes the head, in this call.
        memory.forwardedFieldLines = lines
        send(.head(head), context)
        if let body, count > 0 { send(.body(body), context) }
        endResponse(exchange, complete: true)
    }

    /// Ends the response to the client, reports the exchange, and closes the connection when the
    /// exchange says so.
    private func endResponse(_ exchange: Exchange, complete: Bool) {
        guard let context else { return }
        exchange.responseState = .done
        exchange.summary.incomplete = !complete
        if exchange.requestState == .complete { finishRequest(exchange) }
        let closes = exchange.closesAfter
        let lingers = exchange.requestState != .complete
        guard closes else {
            send(.end(nil), context)   // nothing waits for this write
            context.flush()
            report(exchange)
            return
        }
        closing = true
        sendEnd(context).assumeIsolated().whenComplete { _ in
            guard lingers else {
                context.close(promise: nil)
                return
            }
            // The client is still sending a body nobody reads: closing now would reset the
            // connection and could lose the answer in the client's buffers. The gateway stops
            // writing, reads and drops for a while, then closes (a lingering close).
            context.close(mode: .output, promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: Self.linger) { context.close(promise: nil) }
        }
        report(exchange)
    }

    /// Forgets the exchange once both its request and its response are over.
    private func finishRequest(_ exchange: Exchange) {
        guard self.exchange === exchange else { return }
        self.exchange = nil
        guard !queued.isEmpty, let context else {
            resumeClientReads()
            return
        }
        // The next pipelined request, on the next tick (the answer's end is being written now).
        context.eventLoop.assumeIsolated().execute { [self] in
            while let part = queued.popFirst() {
                handle(part)
                if self.exchange?.requestState == .complete { break }
            }
            if queued.isEmpty { resumeClientReads() }
            watchUpload()
        }
    }

    /// The exchange ended without a whole response (the client or the upstream went away).
    private func abandon(_ exchange: Exchange, complete: Bool) {
        exchange.stopWatchingUpstream()
        exchange.uploadTimer?.cancel()
        dropUpstream(exchange)
        if self.exchange === exchange { self.exchange = nil }
        guard exchange.responseState != .done else { return }
        exchange.responseState = .done
        exchange.summary.incomplete = !complete
        report(exchange)
    }

    /// Closes the exchange's upstream connection (its state is unknown: it cannot be reused).
    private func dropUpstream(_ exchange: Exchange) {
        guard let upstream = exchange.upstream else { return }
        exchange.upstream = nil
        upstream.delegate = nil
        upstream.close()
    }

    /// Hands the exchange's upstream connection back to the pool, when it can serve another.
    private func releaseUpstream(_ exchange: Exchange) {
        guard let upstream = exchange.upstream else { return }
        exchange.upstream = nil
        upstream.delegate = nil
        guard exchange.requestState == .complete, exchange.upstreamKeepsAlive else {
            upstream.close()
            return
        }
        // On the next tick: bytes past the response's end, in the same read, close it first. (The
        // connection knows its pool: a task capturing it alone needs no context of its own.)
        pool.eventLoop.assumeIsolated().execute { upstream.returnToPool() }
    }

    private func report(_ exchange: Exchange) {
        var summary = exchange.summary
        summary.requestBody = exchange.requestTap.captured
        summary.bytesIn = exchange.requestTap.count
        if summary.upstreamRequestBody.isEmpty { summary.upstreamRequestBody = exchange.requestTap.captured }
        if let tap = exchange.responseTap {
            summary.responseBody = tap.captured
            summary.bytesOut = tap.count
            summary.upstreamResponseBody = tap.captured
            summary.upstreamResponseByteCount = tap.count
        }
        summary.duration = ContinuousClock.now - exchange.started
        if let contract = exchange.contract { summary.contract = (contract.operationLabel, contract.findings) }
        if exchange.holdsTranscodeSlot {
            exchange.holdsTranscodeSlot = false
            shared.transcodeSlots.give()
        }
        shared.observer.finished(summary, line: &memory.accessLine)
    }

    // MARK: Failures

    /// The problem answer (RFC 9457) for a failure: 504 for an upstream that did not answer in
    /// time, 502 for one that could not be reached or sent what the gateway could not use, and the
    /// status a ``ParleyError`` implies for the client's own mistakes.
    private func problem(for error: any Error, exchange: Exchange) -> (response: HTTPResponse, body: [UInt8]) {
        let server = exchange.transcoder.server
        let request = exchange.head
        let accept = exchange.accept
        switch error {
        case UpstreamFailure.timedOut(let timeout):
            let detail = "the upstream sent no response head within \(timeout)"
            return server.problemAnswer(ProblemDetails(.gatewayTimeout, detail: detail), status: .gatewayTimeout,
                                        to: request, accepting: accept)
        case UpstreamFailure.stalled:
            let detail = "the upstream's body stalled for longer than the upstream timeout"
            return server.problemAnswer(ProblemDetails(.gatewayTimeout, detail: detail), status: .gatewayTimeout,
                                        to: request, accepting: accept)
        case UpstreamFailure.unreachable(let reason):
            let detail = "the upstream could not be reached: \(reason)"
            return server.problemAnswer(ProblemDetails(.badGateway, detail: detail), status: .badGateway, to: request,
                                        accepting: accept)
        case UpstreamFailure.unusableBody(let reason):
            return server.problemAnswer(ProblemDetails(.badGateway, detail: reason), status: .badGateway, to: request,
                                        accepting: accept)
        case let error as ParleyError:
            return server.problemAnswer(for: error, to: request, accepting: accept)
        case let late as UploadTimedOut:
            return server.problemAnswer(ProblemDetails(.requestTimeout, detail: late.description),
                                        status: .requestTimeout, to: request, accepting: accept)
        case let violation as ContractViolation:
            return server.problemAnswer(violation.problem, status: violation.status, to: request, accepting: accept)
        case let busy as GatewayBusy:
            var answer = server.problemAnswer(ProblemDetails(.serviceUnavailable, detail: busy.description),
                                              status: .serviceUnavailable, to: request, accepting: accept)
            answer.response.headerFields[.retryAfter] = "1"
            return answer
        default:
            return server.problemAnswer(ProblemDetails(.badGateway, detail: "the upstream exchange failed: \(error)"),
                                        status: .badGateway, to: request, accepting: accept)
        }
    }
}

// MARK: The upstream's side

extension ProxyHandler: UpstreamConnectionDelegate {
    func upstream(received part: HTTPResponsePart) {
        guard let exchange, let context else { return }
        switch part {
        case .head(let head):
            let status = head.status   // read once: each read parses the `:status` field
            if status == .switchingProtocols, exchange.responseState == .waitingHead {
                fail(exchange, UnsolicitedSwitch())   // the gateway never forwards `Upgrade`
                return
            }
            guard status.kind != .informational, exchange.responseState == .waitingHead else { return }
            responseHead(head, exchange)
        case .body(let buffer):
            exchange.lastUpstreamRead = .now()
            switch exchange.responseState {
            case .streaming:
                exchange.responseTap?.take(buffer.readableBytesView)
                send(.body(buffer), context)
                if !context.channel.isWritable { exchange.upstream?.pauseReads() }
            case .collecting:
                if exchange.collectsForContract,
                   exchange.collected.count + buffer.readableBytes > exchange.transcodeLimit {
                    streamUnchecked(exchange, then: buffer)
                    return
                }
                guard exchange.collected.count + buffer.readableBytes <= exchange.transcodeLimit else {
                    let type = exchange.plan.map { "\($0.from.essence) " } ?? ""
                    let limit = exchange.transcodeLimit
                    fail(exchange, UpstreamFailure.unusableBody(
                        "the upstream's \(type)body is over the gateway's transcoding limit of \(limit) bytes "
                            + "(max_transcode_bytes)"))
                    return
                }
                buffer.withUnsafeReadableBytes { exchange.collected.append(contentsOf: $0) }
                let large = exchange.collected.count > shared.configuration.transcodeOnLoopBytes
                if !exchange.holdsTranscodeSlot, large {
                    guard shared.transcodeSlots.take() else {
                        fail(exchange, GatewayBusy(limit: shared.transcodeSlots.limit))
                        return
                    }
                    exchange.holdsTranscodeSlot = true
                }
            default:
                break
            }
        case .end:
            exchange.stopWatchingUpstream()
            switch exchange.responseState {
            case .streaming:
                releaseUpstream(exchange)
                endResponse(exchange, complete: true)
            case .collecting:
                releaseUpstream(exchange)
                if exchange.collectsForContract { checkPassingResponse(exchange) } else { transcode(exchange) }
            default:
                break
            }
        }
    }

    func upstreamReadComplete() {
        if exchange?.responseState == .streaming || exchange?.responseState == .done { context?.flush() }
    }

    func upstreamFailed(_ error: (any Error)?) {
        guard let exchange, let context else { return }
        exchange.upstream = nil
        switch exchange.responseState {
        case .waitingHead:
            if let resend = exchange.resendable, let host = exchange.upstreamHost,
               let request = exchange.summary.upstreamRequest,
               host.upstreamProtocol == .http1 || error is UpstreamStreamRefused {
                // A pooled connection the upstream had closed, or a stream its GOAWAY refused: the
                // request goes again, once, on a new connection.
                exchange.resendable = nil
                exchange.retried = true
                exchange.held = resend
                exchange.stopWatchingUpstream()
                connect(host, timeout: .nanoseconds(exchange.timeout.nanoseconds), request, exchange)
                return
            }
            let reason = error.map { String(describing: $0) } ?? "the connection closed before a response head"
            fail(exchange, UpstreamFailure.unreachable(reason))
        case .collecting:
            let reason = error.map { String(describing: $0) } ?? "the connection closed mid-body"
            fail(exchange, UpstreamFailure.unusableBody("the upstream's body was cut short: \(reason)"))
        case .streaming:
            // The client has the head and part of the body: closing is the only way to say it is cut.
            abandon(exchange, complete: false)
            closing = true
            context.close(promise: nil)
        case .idle, .done:
            break
        }
    }

    func upstreamWritabilityChanged(_ writable: Bool) {
        if writable { resumeClientReads() }
    }

    private func responseHead(_ received: HTTPResponse, _ exchange: Exchange) {
        guard let context else { return }
        exchange.stopWatchingUpstream()
        exchange.resendable = nil
        if let sent = exchange.sentAt { exchange.summary.upstreamLatency = ContinuousClock.now - sent }
        // Field lines come only when `connected` asked for them (an HTTP/1.1 client, no contract
        // check), and only with a head none of whose fields `Connection` names: its end-to-end
        // fields are all of its fields but the hop-by-hop ones, so its plan is the received head's.
        let lines = exchange.upstream?.fieldLines
        let linesPlan = lines.map { _ in plan(for: received, exchange) }
        if let lines {
            switch linesPlan {
            case .passThrough(let varies) where !(varies && lines.hasVary):
                passThrough(received, lines: lines, varyingOnAccept: varies, exchange, context: context)
                return
            case .transcode(let transcoding) where lines.standForTranscodedAnswer:
                exchange.upstreamKeepsAlive = !lines.connectionCloses
                collectForTranscoding(received, as: received, plan: transcoding, lines: lines, exchange)
                return
            default:
                break
            }
        }
        var head = received
        head.headerFields = HTTPFields()
        swap(&head.headerFields, &memory.lastResponseFields)
        let closes = ForwardedFields.endToEnd(received.headerFields, into: &head.headerFields)
        exchange.upstreamKeepsAlive = !closes
        switch linesPlan ?? plan(for: head, exchange) {
        case .passThrough(let varies):
            exchange.summary.upstreamResponse = received
            if varies { Transcoder.varyOnAccept(&head.headerFields) }
            if let check = exchange.contract?.responseCheck(method: exchange.head.method) {
                let hasNoBody = exchange.head.method == .head || head.status == .noContent
                    || head.status == .notModified
                guard hasNoBody else {
                    // Held whole (within the transcoding limit) so that enforcing can still replace it.
                    exchange.upstreamHead = head
                    memory.lastResponseFields = head.headerFields
                    exchange.collectsForContract = true
                    exchange.collected = Self.collection(for: received, limit: exchange.transcodeLimit)
                    exchange.responseState = .collecting
                    watchBody(exchange)
                    return
                }
                let findings = check.findings(head, body: [], decoded: nil, limit: exchange.transcodeLimit)
                guard !refusesResponse(exchange, findings) else { return }
            }
            exchange.summary.response = head
            exchange.responseTap = BodyTap(limit: shared.observer.captureLimit)
            exchange.responseState = .streaming
            if exchange.requestState != .complete { exchange.closesAfter = true }
            if exchange.closesAfter { head.headerFields[.connection] = "close" }
            exchange.responseStarted = true
            memory.lastResponseFields = head.headerFields
            send(.head(head), context)
            watchBody(exchange)
        case .notAcceptable(let upstreamType, let producible):
            var error = ParleyError.notAcceptable(exchange.accept.fieldValue, available: producible)
            error.message = "the upstream answered \(upstreamType.essence), which the gateway cannot turn into "
                + "anything '\(exchange.accept.fieldValue ?? "")' accepts"
            let answer = exchange.transcoder.server.problemAnswer(for: error, to: exchange.head,
                                                                accepting: exchange.accept)
            dropUpstream(exchange)
            respond(exchange, head: answer.response, body: answer.body)
        case .transcode(let transcoding):
            memory.lastResponseFields = head.headerFields
            collectForTranscoding(received, as: head, plan: transcoding, lines: nil, exchange)
        }
    }

    /// Collects the upstream's body to transcode it as `plan` says: `head` is `received`'s
    /// end-to-end head, or `received` itself when the answer is written from its field `lines`.
    private func collectForTranscoding(_ received: HTTPResponse, as head: HTTPResponse, plan: TranscodePlan,
                                       lines: ForwardedFieldLines?, _ exchange: Exchange) {
        exchange.summary.upstreamResponse = received
        exchange.upstreamHead = head
        exchange.fieldLines = lines
        exchange.fieldLines?.transcodedBody = true
        exchange.plan = plan
        exchange.collected = Self.collection(for: received, limit: exchange.transcodeLimit)
        exchange.responseState = .collecting
        watchBody(exchange)
    }

    /// Passes `received` through to an HTTP/1.1 client as its upstream connection's field `lines`
    /// (``ForwardedFieldLines``) and the fields the gateway adds after them: an answer passed
    /// through as it is, with no `Vary` of its own to join `Accept` to and no contract to check.
    private func passThrough(_ received: HTTPResponse, lines: ForwardedFieldLines, varyingOnAccept varies: Bool,
                             _ exchange: Exchange, context: ChannelHandlerContext) {
        exchange.upstreamKeepsAlive = !lines.connectionCloses
        exchange.summary.upstreamResponse = received
        exchange.responseTap = BodyTap(limit: shared.observer.captureLimit)
        exchange.responseState = .streaming
        if exchange.requestState != .complete { exchange.closesAfter = true }
        // The fields that come after the lines: those the gateway adds.
        let head = HTTPResponse(status: received.status,
                                headerFields: ForwardedFields.added(varyingOnAccept: varies,
                                                                   closing: exchange.closesAfter))
        exchange.summary.response = head
        exchange.responseStarted = true
        // Taken by the codec as it writes the head, in this call.
        memory.forwardedFieldLines = lines
        send(.head(head), context)
        watchBody(exchange)
    }

    /// An empty collection with room for the body `head` announces (`Content-Length`), within
    /// `limit`: a body that fits arrives without the collection growing.
    private static func collection(for head: HTTPResponse, limit: Int) -> [UInt8] {
        var collection: [UInt8] = []
        if let field = head.headerFields.combinedValue(of: .contentLength), let length = Int(field), length > 0 {
            collection.reserveCapacity(min(length, limit))
        }
        return collection
    }

    /// Waits for the upstream's body: silent for the upstream body timeout, it has stalled.
    private func watchBody(_ exchange: Exchange) {
        exchange.lastUpstreamRead = .now()
        exchange.watchesBody = true
        watchUpstream(until: exchange.lastUpstreamRead + shared.upstreamBodyTimeout)
    }

    /// Decodes the collected upstream body and answers with it re-encoded, or with why not: on
    /// the event loop when it is small, on the thread pool when it is large.
    private func transcode(_ exchange: Exchange) {
        guard let head = exchange.upstreamHead, let plan = exchange.plan, let context else { return }
        let bytes = exchange.collected
        exchange.collected = []
        exchange.summary.upstreamResponseBody = Array(bytes.prefix(shared.observer.captureLimit))
        exchange.summary.upstreamResponseByteCount = bytes.count
        let transcoder = exchange.transcoder
        let (request, accept, limit) = (exchange.head, exchange.accept, exchange.transcodeLimit)
        let check = exchange.contract?.responseCheck(method: request.method)
        // Written from field lines, the answer's fields are those that follow them: the gateway's
        // `Via`, then what the transcoding sets.
        let like = exchange.fieldLines == nil ? head : HTTPResponse(
            status: head.status, headerFields: ForwardedFields.added(varyingOnAccept: false, closing: false))
        guard exchange.holdsTranscodeSlot else {
            // Called directly: no closure context to allocate on the event loop.
            let (result, findings) = Self.transcode(head, like: like, body: bytes, for: request, as: plan,
                                                    accepting: accept, limit: limit, with: transcoder, checking: check)
            transcoded(result, findings: findings, head: head, body: bytes, exchange)
            return
        }
        shared.threadPool.runIfActive(eventLoop: context.eventLoop) { () -> TranscodeOutcome in
            Self.transcode(head, like: like, body: bytes, for: request, as: plan, accepting: accept,
                           limit: limit, with: transcoder, checking: check)
        }
            .assumeIsolated().whenComplete { [self] outcome in
                guard self.exchange === exchange else { return }
                switch outcome {
                case .success(let (result, findings)):
                    transcoded(result, findings: findings, head: head, body: bytes, exchange)
                case .failure(let error):
                    transcoded(.failure(ParleyError(.decodingFailed, "\(error)")), findings: [], head: head,
                               body: bytes, exchange)
                }
            }
    }

    /// Decodes and re-encodes an upstream body with `transcoder`, the answer's head made `like` the
    /// one given; the contract check reads the value the transcoding decoded, where the transcoding runs.
    private static func transcode(_ head: HTTPResponse, like: HTTPResponse, body bytes: [UInt8],
                                  for request: HTTPRequest, as plan: TranscodePlan,
                                  accepting accept: AcceptField, limit: Int, with transcoder: Transcoder,
                                  checking check: ResponseContractCheck?) -> TranscodeOutcome {
        let value: Value
        do throws(ParleyError) {
            value = try transcoder.decode(head, body: bytes, for: request, limit: limit)
        } catch {
            return (.failure(error), check?.findings(head, body: bytes, decoded: nil, limit: limit) ?? [])
        }
        let findings = check?.findings(head, body: bytes, decoded: value, limit: limit) ?? []
        do throws(ParleyError) {
            let answer = try transcoder.encode(value, like: like, for: request, as: plan, accepting: accept,
                                               limit: limit)
            return (.success(answer), findings)
        } catch {
            return (.failure(error), findings)
        }
    }

    /// A transcoding's answer (or why there is none) and the response's contract findings.
    private typealias TranscodeOutcome = (Result<(HTTPResponse, [UInt8]), ParleyError>, [ContractFinding])

    private func transcoded(_ result: Result<(HTTPResponse, [UInt8]), ParleyError>, findings: [ContractFinding],
                            head: HTTPResponse, body bytes: [UInt8], _ exchange: Exchange) {
        guard let plan = exchange.plan else { return }
        guard !refusesResponse(exchange, findings) else { return }
        let from = plan.from
        do {
            let (transcodedHead, transcoded) = try result.get()
            exchange.summary.transcoded = transcoding(plan)
            respond(exchange, head: transcodedHead, body: transcoded, lines: exchange.fieldLines)
        } catch where head.status.kind != .successful && error.code != .limitExceeded {
            // An error answer the formats cannot read: as it came.
            var head = head
            if exchange.fieldLines != nil { head.headerFields = ForwardedFields.endToEnd(head.headerFields) }
            respond(exchange, head: head, body: bytes)
        } catch where error.code == .encodingFailed || error.code == .notAcceptable {
            // The value does not fit the type the client prefers (an XML document as CSV rows),
            // nor any other type the client accepts.
            var refusal = ParleyError.notAcceptable(exchange.accept.fieldValue,
                                                    available: exchange.transcoder.producible(from: from))
            refusal.message = "the upstream's \(from.essence) value cannot be written as \(plan.to.mediaType.essence): "
                + error.message
            fail(exchange, refusal)
        } catch {
            let reason = "the upstream's \(from.essence) body cannot be transcoded: \(error.message)"
            fail(exchange, UpstreamFailure.unusableBody(reason))
        }
    }

    /// The summary's transcoding by `plan`: the connection's last one when it was by the same
    /// plan, else made anew.
    private func transcoding(_ plan: TranscodePlan) -> ExchangeSummary.Transcoding {
        if let last = memory.lastTranscoded, last.plan === plan { return last.transcoding }
        let transcoding = ExchangeSummary.Transcoding(from: plan.from.essence, to: plan.to.mediaType.essence,
                                                      metrics: shared.observer.metrics)
        memory.lastTranscoded = (plan, transcoding)
        return transcoding
    }

    // MARK: Contract checks of responses that pass through

    /// Checks a passing response's collected body (decoded within the transcoding limit, on the
    /// thread pool when it is large), then sends it as it came, or the 502 that enforcing asks for.
    private func checkPassingResponse(_ exchange: Exchange) {
        guard let head = exchange.upstreamHead, let context,
              let check = exchange.contract?.responseCheck(method: exchange.head.method)
        else { return }
        let bytes = exchange.collected
        exchange.collected = []
        exchange.summary.upstreamResponseBody = Array(bytes.prefix(shared.observer.captureLimit))
        exchange.summary.upstreamResponseByteCount = bytes.count
        let limit = exchange.transcodeLimit
        guard exchange.holdsTranscodeSlot else {
            // Called directly: no closure contexts to allocate on the event loop.
            let findings = check.findings(head, body: bytes, decoded: nil, limit: limit)
            return checkedPassingResponse(exchange, findings: findings, head: head, body: bytes)
        }
        shared.threadPool.runIfActive(eventLoop: context.eventLoop) { () -> [ContractFinding] in
            check.findings(head, body: bytes, decoded: nil, limit: limit)
        }
            .assumeIsolated().whenComplete { [self] outcome in
                guard self.exchange === exchange else { return }
                switch outcome {
                case .success(let findings): checkedPassingResponse(exchange, findings: findings, head: head,
                                                                    body: bytes)
                case .failure(let error): fail(exchange, error)
                }
            }
    }

    /// Sends a checked passing response as it came, or the 502 that enforcing asks for.
    private func checkedPassingResponse(_ exchange: Exchange, findings: [ContractFinding], head: HTTPResponse,
                                        body: [UInt8]) {
        guard !refusesResponse(exchange, findings) else { return }
        respond(exchange, head: head, body: body)
    }

    /// A passing response whose body is over the transcoding limit: it streams on unchecked
    /// (a ``ContractFinding/Kind/unchecked`` warning), what was collected first.
    private func streamUnchecked(_ exchange: Exchange, then buffer: ByteBuffer) {
        guard let context, var head = exchange.upstreamHead else { return }
        let name = exchange.contract?.operation?.name ?? ""
        exchange.contract?.add([ContractFinding(.unchecked, "the response of \(name) is over the transcoding limit "
                                                + "of \(exchange.transcodeLimit) bytes: not checked")])
        exchange.collectsForContract = false
        exchange.responseTap = BodyTap(limit: shared.observer.captureLimit)
        exchange.summary.response = head
        exchange.responseState = .streaming
        if exchange.requestState != .complete { exchange.closesAfter = true }
        if exchange.closesAfter { head.headerFields[.connection] = "close" }
        exchange.responseStarted = true
        send(.head(head), context)
        let parts = [context.channel.allocator.buffer(bytes: exchange.collected), buffer]
        exchange.collected = []
        for part in parts where part.readableBytes > 0 {
            exchange.responseTap?.take(part.readableBytesView)
            send(.body(part), context)
        }
        if !context.channel.isWritable { exchange.upstream?.pauseReads() }
    }

    /// Adds a response's contract findings to the exchange; with responses enforced, a
    /// violation is answered 502 here and `true` returned.
    private func refusesResponse(_ exchange: Exchange, _ findings: [ContractFinding]) -> Bool {
        exchange.contract?.add(findings)
        guard exchange.contract?.responses == .enforce else { return false }
        let violations = findings.filter(\.isViolation)
        guard !violations.isEmpty else { return false }
        fail(exchange, ContractViolation(status: .badGateway, findings: violations))
        return true
    }
}
