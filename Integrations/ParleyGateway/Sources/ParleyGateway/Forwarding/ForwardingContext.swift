import NIOCore
import NIOPosix
import Parley
import ParleyFixtures

/// What every client connection's ``ProxyHandler`` shares: the configuration, the format
/// decisions, the observer of finished exchanges, the upstream pools, and the replayer.
struct ForwardingContext: Sendable {
    let configuration: GatewayConfiguration
    let transcoder: Transcoder
    /// The transcoders of routes with a registry of their own (descriptor sets), by path prefix.
    let routeTranscoders: [String: Transcoder]
    /// The gateway's upstream, and the routes' own ones (their own URL or protocol) by path prefix, read once.
    let upstreamTarget: Result<UpstreamTarget, UpstreamFailure>
    let routeTargets: [String: Result<UpstreamTarget, UpstreamFailure>]
    let observer: ExchangeObserver
    let pools: UpstreamPools
    /// Answers instead of the upstream when the gateway replays recordings.
    let replay: ReplayTransport?
    /// The most request-body bytes held before an upstream connection is taken: a request whose
    /// body ends within it goes upstream whole, so a slow upload holds no upstream connection.
    let requestBufferBytes: Int
    /// The longest an upstream body may go silent once its head is in: the longest upstream
    /// timeout of the gateway and its routes.
    let upstreamBodyTimeout: TimeAmount
    /// The longest a client may take no byte of its answer while more waits; longer closes.
    let sendTimeout: TimeAmount
    /// Where bodies over ``GatewayConfiguration/transcodeOnLoopBytes`` are transcoded.
    let threadPool: NIOThreadPool
    /// The cap on large bodies buffered or transcoded at once.
    let transcodeSlots: TranscodeSlots
    /// The contract checks, when ``GatewayConfiguration/contract`` names a document.
    let contract: ContractGuard?
    /// The busy HTTP/1.1 connections to each upstream, and the share kept for ready requests.
    let upstreamSlots: UpstreamSlots

    init(configuration: GatewayConfiguration, transcoder: Transcoder, routeTranscoders: [String: Transcoder],
         observer: ExchangeObserver, pools: UpstreamPools, replay: ReplayTransport?, threadPool: NIOThreadPool,
         contract: ContractGuard? = nil) {
        self.configuration = configuration
        self.transcoder = transcoder
        self.routeTranscoders = routeTranscoders
        self.upstreamTarget = UpstreamTarget.of(configuration.upstream, speaking: configuration.upstreamProtocol)
        var routeTargets: [String: Result<UpstreamTarget, UpstreamFailure>] = [:]
        for route in configuration.routes where route.upstream != nil || route.upstreamProtocol != nil {
            routeTargets[route.pathPrefix] = UpstreamTarget.of(
                route.upstream ?? configuration.upstream,
                speaking: route.upstreamProtocol ?? configuration.upstreamProtocol)
        }
        self.routeTargets = routeTargets
        self.observer = observer
        self.pools = pools
        self.replay = replay
        self.requestBufferBytes = configuration.requestBufferBytes
        let timeouts = [configuration.upstreamTimeout] + configuration.routes.compactMap(\.upstreamTimeout)
        let longest = timeouts.max() ?? .seconds(30)
        self.upstreamBodyTimeout = .nanoseconds(longest.nanoseconds)
        self.sendTimeout = .nanoseconds(configuration.sendTimeout.nanoseconds)
        self.threadPool = threadPool
        self.transcodeSlots = TranscodeSlots(limit: configuration.maxConcurrentTranscodes)
        self.contract = contract
        self.upstreamSlots = UpstreamSlots(limit: configuration.maxUpstreamConnections,
                                           uploadLimit: configuration.maxUploadConnections)
    }

    /// The upstream a request on the route of path prefix `prefix` (`nil`: none) goes to.
    func upstreamTarget(forRoute prefix: String?) -> Result<UpstreamTarget, UpstreamFailure> {
        prefix.flatMap { routeTargets[$0] } ?? upstreamTarget
    }

    /// The transcoder for a request on the route of path prefix `prefix` (`nil`: none).
    func transcoder(forRoute prefix: String?) -> Transcoder {
        prefix.flatMap { routeTranscoders[$0] } ?? transcoder
    }
}
