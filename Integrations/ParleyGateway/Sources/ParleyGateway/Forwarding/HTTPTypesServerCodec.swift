import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import ParleyHTTP

/// The HTTP/1.1 side of a client's connection, between its socket and the head guard. Requests:
/// decoded from bytes straight into HTTP types (``ClientRequestDecoder``). Responses: written as
/// bytes straight from HTTP types, what the extras' conversion and NIO's `HTTPResponseEncoder` (as
/// `configureHTTPServerPipeline` sets it up) write, byte for byte: the framing fields the encoder
/// drops or adds, no body for the answer to a `HEAD` or `CONNECT` request, chunks framed; the head
/// in one buffer of its exact size, with no `HTTPResponseHead` copy of its fields.
///
/// It also takes a connection's first request to h2c when it asks for that upgrade and
/// ``H2CUpgrade`` lets it (given an `upgrade`): it answers `101 Switching Protocols`, replaces the
/// HTTP/1.1 handlers with an h2c connection's, and hands the bytes after the request on to them. A
/// first request asking for an upgrade the gateway does not take goes on without its `Upgrade`.
final class HTTPTypesServerCodec: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = IOData

    private var decoder: ClientRequestDecoder
    /// Whether a read is being decoded (a handler further on may close the channel meanwhile).
    private var decoding = false
    /// How the connection's first request may be upgraded to h2c, until it has been read.
    private var upgrade: H2CUpgrade?
    /// The request of an upgrade under way: its head has been read, its end is awaited.
    private var upgrading: (upgrade: H2CUpgrade, request: UpgradedRequest)?
    /// The bytes after an upgraded request, handed to the h2c handlers as the codec leaves.
    private var upgradeLeftover: ByteBuffer?
    /// Whether the connection switched to h2c: the HTTP/2 handlers' writes pass through as they are.
    private var switched = false
    /// How the answers to the requests read and not answered yet must be framed, oldest first.
    private var pending = PendingRequests()
    /// Whether the body of the response being written is chunked.
    private var isChunked = false
    /// Whether the response being written answers a `HEAD` or `CONNECT` request (it has no body).
    private var dropsBody = false
    /// Where the connection's response heads are written.
    private var heads = HeadBuffer(room: 512)
    /// The connection's memory, through which a passed-through head's field lines come and a
    /// request head's go (``ConnectionMemory/clientFieldLines``).
    private let memory: ConnectionMemory?

    /// The head guard right after the codec, which takes request parts from it and hands it
    /// response parts by a call (``RequestHeadGuard/received(_:)``, ``write(_:promise:)``) rather
    /// than through the pipeline, where each part is boxed and cast back. Alone in a pipeline (its
    /// tests), the codec passes parts on as any handler does.
    var headGuard: RequestHeadGuard?
    private var context: ChannelHandlerContext?

    init(limits: NIOHTTPDecoderLimitConfiguration, upgrade: H2CUpgrade?, memory: ConnectionMemory? = nil) {
        self.decoder = ClientRequestDecoder(limits: limits)
        self.upgrade = upgrade
        self.memory = memory
        memory?.writesFieldLines = true
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        decoder.receive(unwrapInboundIn(data))
        guard !decoding else { return }
        decoding = true
        defer { decoding = false }
        do {
            while let part = try decoder.next() {
                guard pass(part, context: context) else { return }
            }
        } catch {
            context.fireErrorCaught(error)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !decoding {
            do {
                while let part = try decoder.next() {
                    guard pass(part, context: context) else { break }
                }
                try decoder.finish()
            } catch {
                context.fireErrorCaught(error)
            }
        }
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        headGuard = nil
        // The bytes after an upgraded request go to the h2c handlers that replaced this one.
        if let leftover = upgradeLeftover.take(), leftover.readableBytes > 0 {
            context.fireChannelRead(NIOAny(leftover))
            context.fireChannelReadComplete()
        }
    }

    /// Passes a decoded part on (or, for the connection's first request, upgrades it); `false`
    /// when the codec has left the pipeline.
    private func pass(_ part: HTTPRequestPart, context: ChannelHandlerContext) -> Bool {
        switch part {
        case .head(var request):
            if let upgrade = self.upgrade.take(), request.headerFields.contains(.upgrade) {
                if let upgraded = upgrade.request(request, version: decoder.lastMinorVersion,
                                                  client: context.channel.remoteAddress?.ipAddress,
                                                  allocator: context.channel.allocator) {
                    upgrading = (upgrade, upgraded)
                    return true
                }
                request.headerFields[.upgrade] = nil
            }
            pending.append(request.method == .head ? .head : request.method == .connect ? .connect : .other)
            if let memory { memory.clientFieldLines = decoder.fieldLines }
            deliver(.head(request), context: context)
        case .end where upgrading != nil:
            let (upgrade, upgraded) = upgrading.take()!
            upgradeLeftover = decoder.takeRemainingBytes()
            switched = true
            do {
                try upgrade.switchProtocols(context: context, with: upgraded)
            } catch {
                upgradeLeftover = nil
                context.close(promise: nil)
            }
            return false
        case .body, .end:
            deliver(part, context: context)
        }
        return true
    }

    /// Hands a request part to the head guard, or passes it on.
    private func deliver(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        if let headGuard {
            headGuard.received(part)
        } else {
            context.fireChannelRead(wrapInboundOut(part))
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !switched else { return context.write(data, promise: promise) }
        write(unwrapOutboundIn(data), context: context, promise: promise)
    }

    /// Writes a response part from the head guard after the codec (``headGuard``).
    func write(_ part: HTTPResponsePart, promise: EventLoopPromise<Void>?) {
        guard let context, !switched else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        write(part, context: context, promise: promise)
    }

    private func write(_ part: HTTPResponsePart, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        switch part {
        case .head(let response):
            writeHead(response, context: context, promise: promise)
        case .body(let body):
            if dropsBody {
                promise?.fail(NIOHTTPResponseEncoderError.responseBodyNotAllowed)
            } else if isChunked, body.readableBytes > 0 {
                var size = context.channel.allocator.buffer(capacity: 32)
                size.writeString(String(body.readableBytes, radix: 16))
                size.writeStaticString("\r\n")
                context.write(wrapOutboundOut(.byteBuffer(size)), promise: nil)
                context.write(wrapOutboundOut(.byteBuffer(body)), promise: nil)
                size.moveReaderIndex(forwardBy: size.readableBytes - 2)
                context.write(wrapOutboundOut(.byteBuffer(size)), promise: promise)
            } else {
                context.write(wrapOutboundOut(.byteBuffer(body)), promise: promise)
            }
        case .end(let trailers):
            dropsBody = false
            if isChunked {
                let end = context.channel.allocator.lastChunk(trailers: trailers)
                context.write(wrapOutboundOut(.byteBuffer(end)), promise: promise)
            } else if let promise {
                // Nothing to write; an empty write keeps the promise in order with the writes before.
                context.write(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))),
                              promise: promise)
            }
        }
    }

    private func writeHead(_ response: HTTPResponse, context: ChannelHandlerContext,
                           promise: EventLoopPromise<Void>?) {
        // NIO's status: its own reason phrase for the codes it knows, the response's for others.
        let responseStatus = response.status   // read once: each read parses the `:status` field
        let status = HTTPResponseStatus(statusCode: responseStatus.code, reasonPhrase: responseStatus.reasonPhrase)
        var answersConnect = false
        // An interim answer (1xx but 101) is followed by the final one, which answers the request.
        if !(100..<200).contains(status.code) || status.code == 101, let request = pending.popFirst() {
            dropsBody = request != .other
            answersConnect = request == .connect
        }
        // NIO's framing: no framing fields without a body (1xx, 204, 304, or the answer to
        // `CONNECT`); `Transfer-Encoding` never, the encoder's own `chunked` when there is no
        // `Content-Length`. Learnt in the pass that writes the fields, whose end it comes at.
        let mayHaveBody = !answersConnect && status.mayHaveResponseBody
        var addsChunked = false
        let reason = status.reasonPhrase
        // A passed-through head's field lines, written ahead of its fields (``ForwardedFieldLines``).
        let lines = memory?.forwardedFieldLines.take()
        var bytes = heads.take(with: context.channel.allocator)
        bytes.writeHead(upTo: heads.room) { head in
            head.write("HTTP/1.1 ")
            head.write(text: String(status.code))
            head.write(" ")
            head.write(text: reason)
            head.write("\r\n")
            var hasContentLength = false
            if let lines {
                hasContentLength = mayHaveBody && !lines.transcodedBody && lines.contentLength != nil
                lines.write(into: &head, droppingContentLength: !mayHaveBody)
            }
            for field in response.headerFields {
                if field.name.matches(.contentLength) {
                    guard mayHaveBody else { continue }
                    hasContentLength = true
                } else if field.name.matches(.transferEncoding) {
                    continue
                }
                head.write(field)
            }
            addsChunked = mayHaveBody && !hasContentLength
            if addsChunked { head.write("transfer-encoding: chunked\r\n") }
            head.write("\r\n")
        }
        heads.keep(bytes)
        isChunked = addsChunked && !dropsBody
        context.write(wrapOutboundOut(.byteBuffer(bytes)), promise: promise)
    }

    /// What a request's method says of its answer's body.
    private enum Request: Equatable {
        case head, connect, other
    }

    /// The requests read and not answered yet, oldest first: one, but for pipelining, kept inline.
    private struct PendingRequests {
        private var first: Request?
        private var rest: CircularBuffer<Request>?

        mutating func append(_ request: Request) {
            if first == nil {
                first = request
            } else {
                rest = rest ?? CircularBuffer(initialCapacity: 4)
                rest!.append(request)
            }
        }

        mutating func popFirst() -> Request? {
            guard let request = first else { return nil }
            first = rest?.popFirst()
            return request
        }
    }
}
