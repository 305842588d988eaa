import NIOCore

/// The handler before NIO's HTTP/2 handler on an h2c client connection: makes the gateway's own
/// SETTINGS apply from the client's first frame. NIO applies its local settings only once the peer
/// acknowledges them (swift-nio-http2 offers no way to set the decoder's limits up front), and
/// until then decodes heads under its default 16 KiB header-list limit, so a larger head sent before
/// the acknowledgement would fail the whole connection rather than get its 431.
///
/// The handler puts a SETTINGS acknowledgement right after the client's first SETTINGS frame, drops
/// the client's own acknowledgement when it comes (the gateway sends no other SETTINGS), and leaves
/// the pipeline. Applying the gateway's settings early is safe: they only raise the header-list
/// limit and bound the client's open streams, which RFC 9113 §6.5.3 and §5.1.2 let a server enforce
/// with `REFUSED_STREAM` before the client has seen them; they change no flow-control window.
///
/// A client that does not open with HTTP/2's connection preface (on a connection upgraded from
/// HTTP/1.1, where ``ProtocolDetector`` did not see it) gets `GOAWAY` with `PROTOCOL_ERROR` (RFC 9113
/// §3.4) as soon as a byte differs, and ``ConnectionErrorClosure`` closes the connection.
///
/// On a connection upgraded from HTTP/1.1 (``H2CUpgrade``), it also puts the ``UpgradedRequest``
/// in: the settings of the client's `HTTP2-Settings` go first in its first SETTINGS frame (so the
/// frame's own, later values win, and NIO's one acknowledgement answers both, as RFC 7540 §3.2.1
/// has the 101 acknowledge the field), and the request's frames for stream 1 come right after the
/// acknowledgement, before anything else of the client's.
final class EarlySettingsAcknowledgement: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        /// Waiting for the connection preface and the client's first (SETTINGS) frame.
        case awaitingSettings
        /// The acknowledgement was put in; the client's own is dropped when it comes.
        case awaitingAcknowledgement
        /// The preface was wrong: nothing more is read.
        case refused
    }

    /// `GOAWAY` naming no stream processed, with `PROTOCOL_ERROR`.
    private static let protocolErrorGoAway: [UInt8] = [0, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]

    private static let prefaceLength = 24
    private static let frameHeaderLength = 9
    private static let settingsType: UInt8 = 4
    private static let acknowledgementFlag: UInt8 = 1
    /// The largest first SETTINGS frame waited for: the default `SETTINGS_MAX_FRAME_SIZE`.
    private static let largestSettingsFrame = 16_384

    private var state = State.awaitingSettings
    /// The request the connection was upgraded with, until it is put in.
    private var upgradedRequest: UpgradedRequest?
    /// Bytes read and not yet passed on.
    private var pending: ByteBuffer?
    /// Payload bytes of the current frame still to pass on, past its header.
    private var payloadLeft = 0

    /// How long the client has for its preface and first SETTINGS frame; then the connection closes
    /// (NIO's connection manager cannot close a connection whose client has not opened HTTP/2).
    private let prefaceTimeout: TimeAmount
    private var prefaceTimer: Scheduled<Void>?

    init(prefaceTimeout: TimeAmount, upgradedRequest: UpgradedRequest? = nil) {
        self.prefaceTimeout = prefaceTimeout
        self.upgradedRequest = upgradedRequest
    }

    func handlerAdded(context: ChannelHandlerContext) {
        prefaceTimer = context.eventLoop.assumeIsolated().scheduleTask(in: prefaceTimeout) { [self] in
            prefaceTimer = nil
            if case .awaitingSettings = state { context.close(promise: nil) }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .refused = state { return }
        var buffer = unwrapInboundIn(data)
        if pending == nil {
            pending = buffer
        } else {
            pending!.writeBuffer(&buffer)
        }
        guard var input = pending else { return }
        pending = nil
        if case .awaitingSettings = state,
           !input.readableBytesView.prefix(Self.prefaceLength).elementsEqual(
               ProtocolDetector.preface.prefix(min(input.readableBytes, Self.prefaceLength))) {
            // Not HTTP/2's connection preface (an upgraded client going on with HTTP/1.1): answered
            // here, at the first byte that differs, where NIO would wait for the preface's 24 bytes.
            state = .refused
            let goAway = context.channel.allocator.buffer(bytes: Self.protocolErrorGoAway)
            context.writeAndFlush(wrapOutboundOut(goAway), promise: nil)
            return
        }
        var output = context.channel.allocator.buffer(capacity: input.readableBytes + Self.frameHeaderLength)
        let finished = scan(&input, into: &output)
        if finished {
            output.writeBuffer(&input)
        } else if input.readableBytes > 0 {
            pending = input
        }
        if output.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(output)) }
        if finished { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        prefaceTimer?.cancel()
        // Removed mid-frame (the connection closing): whatever waited goes on.
        guard let pending, pending.readableBytes > 0 else { return }
        self.pending = nil
        context.fireChannelRead(wrapInboundOut(pending))
    }

    /// Moves what can be passed on from `input` to `output`; `true` once the handler is done (the
    /// rest of `input` passes as it is).
    private func scan(_ input: inout ByteBuffer, into output: inout ByteBuffer) -> Bool {
        while true {
            switch state {
            case .awaitingSettings:
                let headerEnd = Self.prefaceLength + Self.frameHeaderLength
                guard let header = frameHeader(input, at: input.readerIndex + Self.prefaceLength) else { return false }
                // Not a SETTINGS frame, or one too large: NIO refuses the connection on its own.
                guard header.type == Self.settingsType, header.flags & Self.acknowledgementFlag == 0,
                      header.length <= Self.largestSettingsFrame else { return true }
                guard input.readableBytes >= headerEnd + header.length,
                      var opening = input.readSlice(length: headerEnd + header.length) else { return false }
                if var settings = upgradedRequest?.settings,
                   header.length + settings.readableBytes <= Self.largestSettingsFrame {
                    // The preface, then the frame's header with the longer length and its payload after the field's.
                    var preface = opening.readSlice(length: Self.prefaceLength)!
                    output.writeBuffer(&preface)
                    let length = header.length + settings.readableBytes
                    output.writeBytes([UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8),
                                       UInt8(truncatingIfNeeded: length), Self.settingsType, 0, 0, 0, 0, 0])
                    opening.moveReaderIndex(forwardBy: Self.frameHeaderLength)
                    output.writeBuffer(&settings)
                }
                output.writeBuffer(&opening)
                output.writeBytes([0, 0, 0, Self.settingsType, Self.acknowledgementFlag, 0, 0, 0, 0])
                if var frames = upgradedRequest?.frames { output.writeBuffer(&frames) }
                upgradedRequest = nil
                state = .awaitingAcknowledgement
                prefaceTimer?.cancel()
                prefaceTimer = nil
            case .awaitingAcknowledgement:
                if payloadLeft > 0 {
                    let count = min(payloadLeft, input.readableBytes)
                    guard count > 0, var payload = input.readSlice(length: count) else { return false }
                    output.writeBuffer(&payload)
                    payloadLeft -= count
                    continue
                }
                guard let header = frameHeader(input, at: input.readerIndex) else { return false }
                if header.type == Self.settingsType, header.flags & Self.acknowledgementFlag != 0,
                   header.length == 0 {
                    input.moveReaderIndex(forwardBy: Self.frameHeaderLength)
                    return true
                }
                guard var frameStart = input.readSlice(length: Self.frameHeaderLength) else { return false }
                output.writeBuffer(&frameStart)
                payloadLeft = header.length
            case .refused:
                return false
            }
        }
    }

    /// The length, type and flags of the frame whose header starts at `index`, once all of it is there.
    private func frameHeader(_ buffer: ByteBuffer, at index: Int) -> (length: Int, type: UInt8, flags: UInt8)? {
        guard index + Self.frameHeaderLength <= buffer.writerIndex,
              let bytes = buffer.getBytes(at: index, length: 5) else { return nil }
        let length = Int(bytes[0]) << 16 | Int(bytes[1]) << 8 | Int(bytes[2])
        return (length, bytes[3], bytes[4])
    }
}
