import NIOCore

/// Before NIO's HTTP/2 handler on an h2c connection (a client's or an upstream's): closes the
/// connection once NIO has sent `GOAWAY` for a connection error. NIO answers a connection error
/// (a malformed or oversized frame, a frame on stream 0 that belongs to a stream, a flow-control
/// violation) with `GOAWAY` and its error code but leaves the connection open, while RFC 9113
/// §5.4.1 has the endpoint close it; open, it would hold its descriptor until an idle timer.
///
/// It reads the frame headers of the bytes NIO writes (NIO writes each frame's header with its
/// payload, or before it), and on a `GOAWAY` whose error code is not `NO_ERROR` (graceful
/// shutdown's and the idle timer's are) closes the connection once the frame is written, or
/// after ``sendingLimit`` when the peer takes nothing.
final class ConnectionErrorClosure: ChannelOutboundHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// The longest the `GOAWAY` may wait to be written before the connection closes without it.
    static let sendingLimit = TimeAmount.seconds(1)

    private static let goAwayType: UInt8 = 7
    /// A frame's header, then a `GOAWAY`'s last stream ID and error code.
    private static let goAwayStartLength = 9 + 8

    /// The first bytes of the frame being written, until its type (and a `GOAWAY`'s code) is known.
    private var frameStart: [UInt8] = []
    /// Bytes of the frame being written still to come after those looked at.
    private var bytesLeft: Int
    private var closing = false

    /// On the client's side of a connection (`isClient`), NIO's first bytes are HTTP/2's 24-byte
    /// connection preface, which is no frame.
    init(isClient: Bool = false) {
        bytesLeft = isClient ? 24 : 0
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !closing else {
            context.write(data, promise: promise)
            return
        }
        switch unwrapOutboundIn(data) {
        case .byteBuffer(let buffer):
            scan(buffer)
        case .fileRegion(let region):
            bytesLeft -= min(bytesLeft, region.readableBytes)
        }
        guard closing else {
            context.write(data, promise: promise)
            return
        }
        let written = promise ?? context.eventLoop.makePromise()
        context.write(data, promise: written)
        let loop = context.eventLoop.assumeIsolated()
        let fallback = loop.scheduleTask(in: Self.sendingLimit) { context.close(promise: nil) }
        written.futureResult.assumeIsolated().whenComplete { _ in
            fallback.cancel()
            // After the write's flush has returned, not inside it.
            loop.execute { context.close(promise: nil) }
        }
    }

    /// Follows the frames in `buffer`; sets `closing` at a `GOAWAY` carrying an error.
    private func scan(_ buffer: ByteBuffer) {
        var index = buffer.readerIndex
        while index < buffer.writerIndex {
            if bytesLeft > 0 {
                let skipped = min(bytesLeft, buffer.writerIndex - index)
                index += skipped
                bytesLeft -= skipped
                continue
            }
            frameStart.append(buffer.getInteger(at: index)!)
            index += 1
            guard frameStart.count >= 9 else { continue }
            let length = Int(frameStart[0]) << 16 | Int(frameStart[1]) << 8 | Int(frameStart[2])
            if frameStart[3] == Self.goAwayType, length >= 8 {
                guard frameStart.count == Self.goAwayStartLength else { continue }
                if frameStart[13...].contains(where: { $0 != 0 }) { closing = true }
                bytesLeft = length - 8
            } else {
                bytesLeft = length
            }
            frameStart.removeAll(keepingCapacity: true)
        }
    }
}
