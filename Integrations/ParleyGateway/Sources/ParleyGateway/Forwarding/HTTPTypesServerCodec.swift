import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// The HTTP types side of a client's HTTP/1.1 connection. Requests: NIO's parts converted to HTTP
/// types (``HTTPTypesStreamCodec/request(_:)``). Responses: written as bytes straight from HTTP
/// types, what the extras' conversion and NIO's `HTTPResponseEncoder` (as
/// `configureHTTPServerPipeline` sets it up) write, byte for byte: the framing fields the encoder
/// drops or adds, no body for the answer to a `HEAD` or `CONNECT` request, chunks framed; the head
/// in one buffer of its exact size, with no `HTTPResponseHead` copy of its fields.
///
/// NIO's encoder stays below it for the `101` answer of an upgrade to h2c alone: a response
/// written here means no upgrade is under way, so the codec takes the encoder out of the pipeline
/// before its first write.
final class HTTPTypesServerCodec: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = IOData

    /// NIO's encoder for the upgrade's answer, until the codec takes it out.
    private var upgradeEncoder: HTTPResponseEncoder?
    /// How the answers to the requests read and not answered yet must be framed, oldest first.
    private var pending = PendingRequests()
    /// Whether the body of the response being written is chunked.
    private var isChunked = false
    /// Whether the response being written answers a `HEAD` or `CONNECT` request (it has no body).
    private var dropsBody = false
    /// The connection's last request.
    private var lastRequest: HTTPRequest?
    /// The buffer of the last head written: once the socket let it go, the next head is written
    /// into its storage (`clear` copies nothing, and makes new storage while a write still holds it).
    private var headBuffer: ByteBuffer?

    init(upgradeEncoder: HTTPResponseEncoder?) {
        self.upgradeEncoder = upgradeEncoder
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            pending.append(head.method == .HEAD ? .head : head.method == .CONNECT ? .connect : .other)
            do {
                context.fireChannelRead(wrapInboundOut(.head(try request(head))))
            } catch {
                context.fireErrorCaught(error)
            }
        case .body(let body):
            context.fireChannelRead(wrapInboundOut(.body(body)))
        case .end(let trailers):
            context.fireChannelRead(wrapInboundOut(.end(trailers.map { HTTPFields($0, splitCookie: false) })))
        }
    }

    /// ``HTTPTypesStreamCodec/request(_:)``: for a target in origin form, the connection's last
    /// request changed, so that its storage is reused once the exchange that had it let it go.
    private func request(_ head: HTTPRequestHead) throws -> HTTPRequest {
        guard head.uri.utf8.first == UInt8(ascii: "/"), var request = lastRequest.take() else {
            let request = try HTTPTypesStreamCodec.request(head)
            lastRequest = request
            return request
        }
        request.method = try HTTPRequest.Method(head.method)
        request.scheme = "http"
        request.authority = head.headers.first(name: "Host")
        request.path = head.uri
        request.headerFields = HTTPFields(head.headers, splitCookie: false)
        lastRequest = request
        return request
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if let encoder = upgradeEncoder {
            upgradeEncoder = nil
            context.pipeline.syncOperations.removeHandler(encoder, promise: nil)
        }
        switch unwrapOutboundIn(data) {
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
                var end = context.channel.allocator.buffer(capacity: trailers == nil ? 5 : 256)
                end.writeStaticString("0\r\n")
                for field in trailers ?? [:] { Self.write(field.name, field.value, to: &end) }
                end.writeStaticString("\r\n")
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
        let status = HTTPResponseStatus(statusCode: response.status.code, reasonPhrase: response.status.reasonPhrase)
        var answersConnect = false
        // An interim answer (1xx but 101) is followed by the final one, which answers the request.
        if !(100..<200).contains(status.code) || status.code == 101, let request = pending.popFirst() {
            dropsBody = request != .other
            answersConnect = request == .connect
        }
        var framing = Framing()
        if answersConnect || !status.mayHaveResponseBody {
            framing.dropsContentLength = true
            framing.dropsTransferEncoding = true
        } else if response.headerFields.contains(where: { $0.name == .contentLength }) {
            framing.dropsTransferEncoding = true
        } else {
            framing.dropsTransferEncoding = true
            framing.addsChunked = true
        }
        isChunked = framing.addsChunked && !dropsBody
        let reason = status.reasonPhrase
        // The exact size: the status line, the fields, the added `Transfer-Encoding`, the blank line.
        var size = 9 + String(status.code).utf8.count + 1 + reason.utf8.count + 2 + 2
        for field in response.headerFields where framing.keeps(field.name) {
            size += field.name.rawName.utf8.count + field.value.utf8.count + 4
        }
        if framing.addsChunked { size += 28 }
        var bytes = headBuffer.take() ?? context.channel.allocator.buffer(capacity: size)
        bytes.clear(minimumCapacity: size)
        bytes.writeStaticString("HTTP/1.1 ")
        bytes.writeString(String(status.code))
        bytes.writeStaticString(" ")
        bytes.writeString(reason)
        bytes.writeStaticString("\r\n")
        for field in response.headerFields where framing.keeps(field.name) {
            Self.write(field.name, field.value, to: &bytes)
        }
        if framing.addsChunked { bytes.writeStaticString("transfer-encoding: chunked\r\n") }
        bytes.writeStaticString("\r\n")
        headBuffer = bytes
        context.write(wrapOutboundOut(.byteBuffer(bytes)), promise: promise)
    }

    private static func write(_ name: HTTPField.Name, _ value: String, to bytes: inout ByteBuffer) {
        bytes.writeString(name.rawName)
        bytes.writeStaticString(": ")
        bytes.writeString(value)
        bytes.writeStaticString("\r\n")
    }

    /// How NIO's encoder frames a response (it sets framing fields itself): no framing fields
    /// when it has no body (1xx, 204, 304, or the answer to `CONNECT`), `Content-Length` wins
    /// over `Transfer-Encoding`, and a body with neither is chunked.
    private struct Framing {
        var dropsContentLength = false
        var dropsTransferEncoding = false
        var addsChunked = false

        func keeps(_ name: HTTPField.Name) -> Bool {
            !(dropsContentLength && name == .contentLength)
                && !(dropsTransferEncoding && name == .transferEncoding)
        }
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
