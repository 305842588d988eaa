import Foundation
import HTTPTypes
import NIOCore
import Parley

/// One request on a client connection, from its head until both it and its answer are over:
/// what the ``ProxyHandler`` knows and has decided about it.
final class Exchange {
    /// Where the client's request body is.
    enum RequestState {
        /// Held until it ends or passes the buffering threshold.
        case buffering
        /// Going upstream part by part as it arrives.
        case streaming
        /// Arriving after an answer that needs none of it (413): dropped.
        case discarding
        /// Over: every byte arrived.
        case complete
    }

    /// Where the answer is.
    enum ResponseState {
        case idle
        /// Sent upstream; no head yet.
        case waitingHead
        /// The upstream's head went to the client; its body follows part by part.
        case streaming
        /// The upstream's body is read whole, to transcode.
        case collecting
        /// The client has the whole answer (or the connection is closing).
        case done
    }

    let head: HTTPRequest
    let route: GatewayConfiguration.Route?
    /// The route's path prefix (`nil`: no route), read once: what the connection's memory and the
    /// route's upstream and transcoder are keyed by.
    let routePrefix: String?
    /// When the answer is transcoded: the route's mode, else ``GatewayConfiguration/TranscodeMode/preferred``.
    let transcodeMode: GatewayConfiguration.TranscodeMode
    /// How the upstream is spoken to: the route's protocol, else the gateway's.
    let upstreamProtocol: GatewayConfiguration.UpstreamProtocol
    /// The route's transcoder (its own registry when it names descriptor sets), else the gateway's.
    let transcoder: Transcoder
    /// The client's `Accept` (scanned once, by the handler) carried to every decision.
    let accept: AcceptField
    let transcodeLimit: Int
    let timeout: Duration
    let started = ContinuousClock.now
    var summary: ExchangeSummary
    var requestTap: BodyTap
    var responseTap: BodyTap?

    var transcodesRequest = false
    var requestState = RequestState.buffering
    var responseState = ResponseState.idle
    /// Request body held back (before the upstream connection is there).
    var held: [ByteBuffer] = []
    var heldBytes = 0
    /// The whole request body as sent, kept until the response head in case a reused upstream
    /// connection turns out closed and the request goes again on a new one.
    var resendable: [ByteBuffer]?
    var retried = false

    var upstreamHost: UpstreamKey?
    /// The fields of the request sent upstream, when they are written straight into its head
    /// rather than made into its field list.
    var upstreamFields: UpstreamFields?
    /// The client's field lines of the request (HTTP/1.1), until it is sent upstream.
    var clientFieldLines: ClientFieldLines?
    /// The proxy fields the head policy adds after the head's fields.
    var appendedProxyFields: RequestHeadPolicy.ForwardedElement?
    var upstream: UpstreamConnection?
    var upstreamKeepsAlive = true
    var sentAt: ContinuousClock.Instant?
    var upstreamHead: HTTPResponse?
    /// The upstream head's field lines, when a transcoded answer is written from them
    /// (``ForwardedFieldLines``): ``upstreamHead`` is then the head as received.
    var fieldLines: ForwardedFieldLines?
    var plan: TranscodePlan?
    /// The upstream's body as it arrives, when the gateway holds it whole (to transcode it, or
    /// to check it against the contract): in one array, which the transcoding reads as it is.
    var collected: [UInt8] = []
    /// Whether the exchange holds one of the gateway's ``TranscodeSlots`` (its body is large).
    var holdsTranscodeSlot = false
    var lastUpstreamRead = NIODeadline.now()
    /// When the upstream must have sent its response head, while the gateway waits for it.
    var headDeadline: NIODeadline?
    /// Whether the upstream's body is awaited: silent for the upstream body timeout, it has stalled.
    var watchesBody = false
    /// When the request body must have ended (the upload timeout from its head).
    let uploadDeadline: NIODeadline
    /// Fires at ``uploadDeadline`` when the request body has not ended by then; armed only once
    /// a read leaves the body open (most requests end in the read of their head).
    var uploadTimer: Scheduled<Void>?

    /// What the exchange is checked for against the OpenAPI document, and what was found;
    /// `nil` when nothing is checked.
    var contract: ExchangeContract?
    /// Whether the upstream's body is collected only for its contract check (it passes through).
    var collectsForContract = false

    /// Whether a response head went to the client.
    var responseStarted = false
    /// Whether the connection closes after the answer (the client asked, or its body is unread).
    var closesAfter: Bool

    init(head: HTTPRequest, route: GatewayConfiguration.Route?, transcoder: Transcoder, accept: AcceptField,
         configuration: GatewayConfiguration, captureLimit: Int) {
        self.head = head
        self.route = route
        self.routePrefix = route?.pathPrefix
        self.transcodeMode = route?.transcode ?? .preferred
        self.upstreamProtocol = route?.upstreamProtocol ?? configuration.upstreamProtocol
        self.transcoder = transcoder
        self.accept = accept
        self.transcodeLimit = route?.maxTranscodeBytes ?? configuration.maxTranscodeBytes
        self.timeout = route?.upstreamTimeout ?? configuration.upstreamTimeout
        self.uploadDeadline = .now() + .nanoseconds(configuration.uploadTimeout.nanoseconds)
        self.summary = ExchangeSummary(request: head, response: Self.noResponse, started: Date())
        self.requestTap = BodyTap(limit: captureLimit)
        self.closesAfter = ForwardedFields.connectionCloses(head.headerFields)
    }

    /// The summary's response until there is one (made once: a response head is a stored object).
    private static let noResponse = HTTPResponse(status: .ok)

    func receivedBody(_ buffer: ByteBuffer) { requestTap.take(buffer.readableBytesView) }

    /// Stops waiting for the upstream (its head or its body): the handler's watchdog, when it
    /// fires, finds nothing to check.
    func stopWatchingUpstream() {
        headDeadline = nil
        watchesBody = false
    }
}
