import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Writes the requests of an HTTP/1.1 upstream connection as bytes, straight from HTTP types, and
/// converts the upstream's response parts to HTTP types: swift-nio-extras' `HTTP1ToHTTPClientCodec`
/// and NIO's `HTTPRequestEncoder` in one step, with their output byte for byte (the `Host` field
/// first, one `Cookie` field, the framing fields the encoder adds or drops), without building an
/// `HTTPHeaders` copy of the fields or growing the head's buffer.
///
/// NIO's response decoder, below it, learns each request's method from the head written past it
/// (a `HEAD` response has no body), and NIO's request validator checks the head's method and
/// target: both get the head with its method and target and no fields, then the bytes follow as
/// body parts, which ``UpstreamRequestWriter`` at the bottom of the pipeline writes. The fields
/// are checked here as the validator checks them (no control characters in values; names are
/// tokens by construction).
final class UpstreamRequestEncoder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPResponsePart
    typealias OutboundIn = HTTPRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// Whether the body of the request being written is chunked.
    private var isChunked = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            do {
                context.fireChannelRead(wrapInboundOut(.head(try HTTPResponse(head))))
            } catch {
                context.fireErrorCaught(error)
            }
        case .body(let body):
            context.fireChannelRead(wrapInboundOut(.body(body)))
        case .end(let trailers):
            context.fireChannelRead(wrapInboundOut(.end(trailers.map { HTTPFields($0, splitCookie: false) })))
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let request):
            writeHead(request, context: context, promise: promise)
        case .body(let body):
            guard isChunked, body.readableBytes > 0 else {
                context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: promise)
                return
            }
            var size = context.channel.allocator.buffer(capacity: 32)
            size.writeString(String(body.readableBytes, radix: 16))
            size.writeStaticString("\r\n")
            context.write(wrapOutboundOut(.body(.byteBuffer(size))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            size.moveReaderIndex(forwardBy: size.readableBytes - 2)
            context.write(wrapOutboundOut(.body(.byteBuffer(size))), promise: promise)
        case .end(let trailers):
            guard isChunked else {
                // No bytes (trailers go only with a chunked body), but the validator sees them.
                context.write(wrapOutboundOut(.end(trailers.map(HTTPHeaders.init))), promise: promise)
                return
            }
            isChunked = false
            var end = context.channel.allocator.buffer(capacity: 8)
            end.writeStaticString("0\r\n")
            if let trailers {
                guard Self.areValidToSend(trailers) else { return refuse(context, promise) }
                Self.write(trailers, to: &end)
            }
            end.writeStaticString("\r\n")
            context.write(wrapOutboundOut(.body(.byteBuffer(end))), promise: promise)
            context.write(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    private func writeHead(_ request: HTTPRequest, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        guard let target = request.method == .connect ? request.authority : request.path else {
            context.fireErrorCaught(HTTP1TypeConversionError.missingPath)
            promise?.fail(HTTP1TypeConversionError.missingPath)
            return
        }
        let framing = Self.framing(request.method, request.headerFields)
        guard Self.areValidToSend(request.headerFields), request.authority.map(Self.isValidValue) ?? true else {
            return refuse(context, promise)
        }
        isChunked = framing.isChunked
        // The exact size: the request line, `Host`, the fields, the added `Transfer-Encoding`, the blank line.
        let method = request.method.rawValue
        var size = method.utf8.count + target.utf8.count + 12 + 2
        if let authority = request.authority { size += 8 + authority.utf8.count }
        for field in request.headerFields where framing.keeps(field.name) {
            size += field.name.rawName.utf8.count + field.value.utf8.count + 4
        }
        if framing.addsChunked { size += 28 }
        var bytes = context.channel.allocator.buffer(capacity: size)
        bytes.writeString(method)
        bytes.writeStaticString(" ")
        bytes.writeString(target)
        bytes.writeStaticString(" HTTP/1.1\r\n")
        if let authority = request.authority {
            bytes.writeStaticString("Host: ")
            bytes.writeString(authority)
            bytes.writeStaticString("\r\n")
        }
        var firstCookie = true
        for field in request.headerFields where framing.keeps(field.name) {
            if field.name == .cookie {
                // The extras' conversion joins every Cookie field into the first one.
                guard firstCookie else { continue }
                firstCookie = false
                Self.write(field.name, request.headerFields[.cookie] ?? field.value, to: &bytes)
            } else {
                Self.write(field.name, field.value, to: &bytes)
            }
        }
        if framing.addsChunked { bytes.writeStaticString("transfer-encoding: chunked\r\n") }
        bytes.writeStaticString("\r\n")
        // The method and target alone, for the decoder and the validator below.
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(request.method), uri: target)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: promise)
    }

    /// Refuses fields that NIO's request validator refuses, as it does.
    private func refuse(_ context: ChannelHandlerContext, _ promise: EventLoopPromise<Void>?) {
        promise?.fail(HTTPParserError.invalidHeaderToken)
        context.fireErrorCaught(HTTPParserError.invalidHeaderToken)
    }

    /// How NIO's request encoder frames a body (it sets framing fields itself): `TRACE` has none,
    /// `Content-Length` wins over `Transfer-Encoding`, and `POST`, `PUT` and `PATCH` without
    /// either are chunked.
    private struct Framing {
        var dropsContentLength = false
        var dropsTransferEncoding = false
        var addsChunked = false
        var isChunked = false

        func keeps(_ name: HTTPField.Name) -> Bool {
            !(dropsContentLength && name == .contentLength)
                && !(dropsTransferEncoding && name == .transferEncoding)
        }
    }

    private static func framing(_ method: HTTPRequest.Method, _ fields: HTTPFields) -> Framing {
        var framing = Framing()
        if method == .trace {
            framing.dropsContentLength = true
            framing.dropsTransferEncoding = true
        } else if fields.contains(where: { $0.name == .contentLength }) {
            framing.dropsTransferEncoding = true
        } else if method == .post || method == .put || method == .patch {
            framing.dropsTransferEncoding = true
            framing.addsChunked = true
            framing.isChunked = true
        } else {
            framing.isChunked = fields.first(where: { $0.name == .transferEncoding })?.value == "chunked"
        }
        return framing
    }

    private static func write(_ name: HTTPField.Name, _ value: String, to bytes: inout ByteBuffer) {
        bytes.writeString(name.rawName)
        bytes.writeStaticString(": ")
        bytes.writeString(value)
        bytes.writeStaticString("\r\n")
    }

    private static func write(_ fields: HTTPFields, to bytes: inout ByteBuffer) {
        for field in fields { write(field.name, field.value, to: &bytes) }
    }

    /// Whether NIO's validator lets `fields` through (values without control characters but tab).
    private static func areValidToSend(_ fields: HTTPFields) -> Bool {
        fields.allSatisfy { field in field.withUnsafeBytesOfValue { $0.allSatisfy(isValidValueByte) } }
    }

    private static func isValidValue(_ value: String) -> Bool { value.utf8.allSatisfy(isValidValueByte) }

    private static func isValidValueByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\t") || (byte >= 0x20 && byte != 0x7F)
    }
}

/// The bottom of an HTTP/1.1 upstream connection's pipeline: writes the bytes
/// ``UpstreamRequestEncoder`` made (its body parts) and drops the heads it passed NIO's decoder
/// and validator; a head the validator refused never arrives, and the bytes after it are dropped
/// until the next head.
final class UpstreamRequestWriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = IOData

    private var headPassed = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head:
            headPassed = true
            promise?.succeed()
        case .body(let bytes):
            guard headPassed else {
                promise?.fail(HTTPParserError.invalidHeaderToken)
                return
            }
            context.write(wrapOutboundOut(bytes), promise: promise)
        case .end:
            headPassed = false
            // Nothing to write; an empty write keeps the promise in order with the writes before.
            guard let promise else { return }
            context.write(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))), promise: promise)
        }
    }
}
