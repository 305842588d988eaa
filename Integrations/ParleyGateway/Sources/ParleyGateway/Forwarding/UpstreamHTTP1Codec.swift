import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import ParleyHTTP

/// The HTTP/1.1 side of an upstream connection, between its socket and its ``UpstreamConnection``:
/// requests are written as bytes straight from HTTP types, responses decoded from bytes straight
/// into HTTP types (``UpstreamResponseDecoder``). It writes what swift-nio-extras'
/// `HTTP1ToHTTPClientCodec`, NIO's `HTTPRequestEncoder` and `NIOHTTPRequestHeadersValidator`
/// write, byte for byte (the `Host` field first, one `Cookie` field, the framing fields the encoder
/// adds or drops), and refuses what the validator refuses (a control character but tab in a field
/// value, a target byte outside RFC 3986's set), without an `HTTPHeaders` copy of the fields or
/// growing the head's buffer; it reads what NIO's response decoder and the extras' conversion read.
/// Each request's method tells the decoder whether its answer has a body. A forwarded request's
/// fields come as ``UpstreamFields`` (``nextHeadFields``): written straight from the client's
/// admitted fields, as the same bytes the request's own fields made from them would be.
final class UpstreamHTTP1Codec: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = HTTPResponsePart
    typealias OutboundIn = HTTPRequestPart
    typealias OutboundOut = IOData

    /// Whether the body of the request being written is chunked.
    private var isChunked = false
    /// Whether the head of the request being written went out (the bytes of a refused one fail).
    private var headPassed = false
    private var decoder = UpstreamResponseDecoder()
    /// Where the connection's request heads are written.
    private var heads = HeadBuffer(room: 1024)
    /// Whether a read is being decoded (a handler further on may close the channel meanwhile).
    private var decoding = false

    /// The end-to-end field lines of the response head last handed on, when they stand for it.
    var fieldLines: ForwardedFieldLines? { decoder.fieldLines }
    /// Whether the answer to the next request written has its field lines written.
    var writesFieldLines = true
    /// The fields of the next request head written, in place of its own (``UpstreamFields``).
    var nextHeadFields: UpstreamFields?
    /// The connection after the codec, which hands it request parts and takes response parts by a
    /// call (``write(_:promise:)``, ``UpstreamConnection/received(_:)``) rather than through the
    /// pipeline, where each part is boxed and cast back. Alone in a pipeline (its tests), the codec
    /// passes parts on as any handler does. Held strongly (a weak reference would make every
    /// retain of the connection take the runtime's slow path) until either handler is removed.
    var connection: UpstreamConnection?
    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        connection = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        decoder.receive(unwrapInboundIn(data))
        guard !decoding else { return }
        decoding = true
        defer { decoding = false }
        do {
            while let part = try decoder.next() { pass(part, context: context) }
        } catch {
            context.fireErrorCaught(error)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A close while a read is decoded (the exchange let the connection go) ends nothing.
        if !decoding {
            do {
                while let part = try decoder.next() { pass(part, context: context) }
                if let part = try decoder.finish() { pass(part, context: context) }
            } catch {
                context.fireErrorCaught(error)
            }
        }
        context.fireChannelInactive()
    }

    /// Hands a decoded part to the connection, or passes it on.
    private func pass(_ part: HTTPResponsePart, context: ChannelHandlerContext) {
        if let connection {
            connection.received(part)
        } else {
            context.fireChannelRead(wrapInboundOut(part))
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        write(unwrapOutboundIn(data), context: context, promise: promise)
    }

    /// Writes a request part from the connection after the codec (``connection``).
    func write(_ part: HTTPRequestPart, promise: EventLoopPromise<Void>?) {
        guard let context else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        write(part, context: context, promise: promise)
    }

    private func write(_ part: HTTPRequestPart, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        switch part {
        case .head(let request):
            writeHead(request, context: context, promise: promise)
        case .body(let body):
            guard isChunked, body.readableBytes > 0 else { return send(body, context: context, promise: promise) }
            var size = context.channel.allocator.buffer(capacity: 32)
            size.writeString(String(body.readableBytes, radix: 16))
            size.writeStaticString("\r\n")
            send(size, context: context, promise: nil)
            send(body, context: context, promise: nil)
            size.moveReaderIndex(forwardBy: size.readableBytes - 2)
            send(size, context: context, promise: promise)
        case .end(let trailers):
            guard isChunked else {
                // No bytes (trailers go only with a chunked body), but they are checked.
                if let trailers, !Self.areValidToSend(trailers) { return refuse(context, promise) }
                headPassed = false
                // An empty write keeps the promise in order with the writes before.
                guard let promise else { return }
                context.write(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))),
                              promise: promise)
                return
            }
            isChunked = false
            if let trailers, !Self.areValidToSend(trailers) { return refuse(context, promise) }
            send(context.channel.allocator.lastChunk(trailers: trailers), context: context, promise: promise)
            headPassed = false
        }
    }

    /// Writes bytes of the request whose head was written; those of a refused head fail.
    private func send(_ bytes: ByteBuffer, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        guard headPassed else {
            promise?.fail(HTTPParserError.invalidHeaderToken)
            return
        }
        context.write(wrapOutboundOut(.byteBuffer(bytes)), promise: promise)
    }

    private func writeHead(_ request: HTTPRequest, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        headPassed = false
        let upstreamFields = nextHeadFields.take()
        guard let target = request.method == .connect ? request.authority : request.path else {
            context.fireErrorCaught(HTTP1TypeConversionError.missingPath)
            promise?.fail(HTTP1TypeConversionError.missingPath)
            return
        }
        // NIO's framing follows `Content-Length`; the rest of what it needs of the fields (the first
        // `Transfer-Encoding`, whether every value passes its validator) is learnt in the pass that
        // writes them.
        let framing = Self.framing(request.method, hasContentLength: upstreamFields?.hasContentLength
                                       ?? request.headerFields.contains(.contentLength))
        // The validator's check of `Host` and the target (a method of HTTP types is a token: it passes).
        guard request.authority.map(Self.isValidValue) ?? true, target.utf8.allSatisfy(Self.isTargetByte) else {
            return refuse(context, promise)
        }
        let method = request.method.rawValue
        // The extras' conversion joins every Cookie field into the first one, as text: where a value
        // is not UTF-8 (each such byte becomes U+FFFD) the joined line can outgrow the fields it
        // replaces, which `writeHead` meets as any head over the room: it writes again with more.
        var pass = FieldPass(framing: framing, cookies: upstreamFields?.admitted ?? request.headerFields)
        var bytes = heads.take(with: context.channel.allocator)
        bytes.writeHead(upTo: heads.room) { head in
            pass.restart()
            head.write(text: method)
            head.write(" ")
            head.write(text: target)
            head.write(" HTTP/1.1\r\n")
            if let authority = request.authority {
                head.write("Host: ")
                head.write(text: authority)
                head.write("\r\n")
            }
            if let upstreamFields, let lines = upstreamFields.clientLines {
                // The client's fields and the proxy fields as lines, the upstream `Accept` in the first one's place.
                lines.write(into: &head) { head in
                    if let accept = upstreamFields.accept { pass.write(accept, to: &head) }
                }
                if let appended = upstreamFields.appended {
                    appended.lines.withUnsafeBytes { head.write($0) }
                    pass.note(valuesAreValid: appended.valuesAreValid)
                }
                let placed = upstreamFields.accept == nil || lines.acceptOffset != nil
                upstreamFields.forEachAdded(acceptPlaced: placed) { pass.write($0, to: &head) }
            } else if let upstreamFields {
                upstreamFields.forEach { pass.write($0, to: &head) }
            } else {
                for field in request.headerFields { pass.write(field, to: &head) }
            }
            if framing.addsChunked { head.write("transfer-encoding: chunked\r\n") }
            head.write("\r\n")
        }
        heads.keep(bytes)
        guard pass.valuesAreValid else { return refuse(context, promise) }
        isChunked = framing.addsChunked
            || (framing.followsTransferEncoding && pass.firstTransferEncodingIsChunked == true)
        headPassed = true
        decoder.expectResponse(to: request.method == .head || request.method == .connect ? .bodyless : .other,
                               writingFieldLines: writesFieldLines)
        context.write(wrapOutboundOut(.byteBuffer(bytes)), promise: promise)
    }

    /// Refuses fields that NIO's request validator refuses, as it does.
    private func refuse(_ context: ChannelHandlerContext, _ promise: EventLoopPromise<Void>?) {
        promise?.fail(HTTPParserError.invalidHeaderToken)
        context.fireErrorCaught(HTTPParserError.invalidHeaderToken)
    }

    /// One pass over a head's fields as they are written: what the framing keeps, one `Cookie` field
    /// with every cookie's value, and what the pass learns (whether every value passes NIO's
    /// validator, whether the first `Transfer-Encoding` is `chunked`).
    private struct FieldPass {
        let framing: Framing
        /// The fields whose cookies the one `Cookie` field joins.
        let cookies: HTTPFields
        private(set) var valuesAreValid = true
        private(set) var firstTransferEncodingIsChunked: Bool?
        private var firstCookie = true

        init(framing: Framing, cookies: HTTPFields) {
            self.framing = framing
            self.cookies = cookies
        }

        /// Takes in whether the values of fields written without the pass (``ClientFieldLines``) are valid.
        mutating func note(valuesAreValid valid: Bool) {
            if !valid { valuesAreValid = false }
        }

        /// Forgets what an earlier pass over the same fields learnt.
        mutating func restart() {
            valuesAreValid = true
            firstTransferEncodingIsChunked = nil
            firstCookie = true
        }

        mutating func write(_ field: HTTPField, to head: inout HeadWriter) {
            if firstTransferEncodingIsChunked == nil, field.name.matches(.transferEncoding) {
                firstTransferEncodingIsChunked = field.value == "chunked"
            }
            let kept = framing.keeps(field.name)
            if kept, !field.name.matches(.cookie) {
                // Checked as it is copied: one pass over the value's bytes.
                let isValid = head.write(checking: field)
                if valuesAreValid { valuesAreValid = isValid }
                return
            }
            // A field the framing drops, or a cookie: checked on its own, written at most once.
            if valuesAreValid { valuesAreValid = UpstreamHTTP1Codec.isValidToSend(field) }
            guard kept, firstCookie else { return }
            firstCookie = false
            if let joined = cookies[.cookie], joined != field.value {
                head.write(field.name, joined)
            } else {
                head.write(field)
            }
        }
    }

    /// How NIO's request encoder frames a body (it sets framing fields itself): `TRACE` has none,
    /// `Content-Length` wins over `Transfer-Encoding`, `POST`, `PUT` and `PATCH` without either are
    /// chunked, and other requests are as their first `Transfer-Encoding` says.
    private struct Framing {
        var dropsContentLength = false
        var dropsTransferEncoding = false
        var addsChunked = false
        /// Whether the body is chunked when the first `Transfer-Encoding` field's value is `chunked`.
        var followsTransferEncoding = false

        func keeps(_ name: HTTPField.Name) -> Bool {
            !(dropsContentLength && name.matches(.contentLength))
                && !(dropsTransferEncoding && name.matches(.transferEncoding))
        }
    }

    private static func framing(_ method: HTTPRequest.Method, hasContentLength: Bool) -> Framing {
        var framing = Framing()
        if method == .trace {
            framing.dropsContentLength = true
            framing.dropsTransferEncoding = true
        } else if hasContentLength {
            framing.dropsTransferEncoding = true
        } else if method == .post || method == .put || method == .patch {
            framing.dropsTransferEncoding = true
            framing.addsChunked = true
        } else {
            framing.followsTransferEncoding = true
        }
        return framing
    }

    /// Whether NIO's validator lets `fields` through (values without control characters but tab).
    private static func areValidToSend(_ fields: HTTPFields) -> Bool {
        fields.allSatisfy(isValidToSend)
    }

    /// Whether NIO's validator lets `field`'s value through.
    private static func isValidToSend(_ field: HTTPField) -> Bool {
        field.withUnsafeBytesOfValue { HTTP1Syntax.areValueBytes(UnsafeRawBufferPointer($0)) }
    }

    private static func isValidValue(_ value: String) -> Bool {
        value.withUTF8Bytes(HTTP1Syntax.areValueBytes)
    }

    /// The bytes NIO's validator lets through in a request target: RFC 3986's unreserved,
    /// gen-delims, sub-delims and `%`.
    private static func isTargetByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "@"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="), UInt8(ascii: "%"):
            true
        default:
            false
        }
    }
}
