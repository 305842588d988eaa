import Foundation
import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
import NIOPosix
public import Parley
import ParleyFixtures
import ParleyOpenAPI
public import ServiceLifecycle

/// The transcoding reverse proxy, as a service: run it in a `ServiceGroup` (as `parley-gateway`
/// does) and it stops on graceful shutdown once the requests in flight are answered, closing
/// the connections still open after ``GatewayConfiguration/drainTimeout``.
///
/// ```swift
/// let gateway = Gateway(configuration: GatewayConfiguration(upstream: upstreamURL), registry: .linked) { addresses in
///     print("listening on http://\(addresses.main)")
/// }
/// try await ServiceGroup(services: [gateway], gracefulShutdownSignals: [.sigterm], logger: logger).run()
/// ```
///
/// What it does to each request is in the package's documentation; in short: forwarded with
/// hop-by-hop fields dropped and `Via` added, the response streamed through when the client
/// accepts its type, transcoded when a registered format decodes it and the client accepts one
/// the registry encodes, 406 otherwise; upstream failures are 502 and 504 problem documents.
public struct Gateway: Service {
    /// The addresses the gateway listens on once it runs (the ports the system chose for 0).
    public struct Addresses: Sendable, Equatable {
        /// The proxy's address.
        public var main: HostAndPort
        /// The admin address (`/health`, `/metrics`), when configured.
        public var admin: HostAndPort?
    }

    /// The configuration it runs with.
    public let configuration: GatewayConfiguration
    /// The formats it transcodes between.
    public let registry: Registry
    private let logger: Logger
    private let accessLogger: Logger
    private let logWriters: [LogLineWriter]
    private let onListening: @Sendable (Addresses) async -> Void

    /// Creates a gateway.
    ///
    /// - Parameters:
    ///   - configuration: Where to listen and forward, limits, routes, recording.
    ///   - registry: The formats to transcode between (`Registry.linked` in the executable).
    ///   - logger: Receives lifecycle events and warnings, and the access log unless `accessLogger` is given.
    ///   - accessLogger: Receives the access log (one `info` line per request); `nil` uses `logger`.
    ///   - logWriters: The writers behind the loggers, whose dropped lines the metrics count
    ///     (`parley_gateway_log_lines_dropped_total`).
    ///   - onListening: Called once every listener is bound, with the bound addresses.
    public init(configuration: GatewayConfiguration, registry: Registry,
                logger: Logger = Logger(label: "parley-gateway"), accessLogger: Logger? = nil,
                logWriters: [LogLineWriter] = [],
                onListening: @escaping @Sendable (Addresses) async -> Void = { _ in }) {
        self.configuration = configuration
        self.registry = registry
        self.logger = logger
        self.accessLogger = accessLogger ?? logger
        self.logWriters = logWriters
        self.onListening = onListening
    }

    /// Serves until graceful shutdown, then finishes the requests in flight (within the drain
    /// timeout) and returns.
    public func run() async throws {
        // Routes' descriptor sets are read first: a bad one stops the gateway before it holds anything.
        let transcodeLimits = [configuration.maxTranscodeBytes] + configuration.routes.compactMap(\.maxTranscodeBytes)
        let base = RouteRegistries.base(registry)
        var routeTranscoders: [String: Transcoder] = [:]
        for route in configuration.routes {
            guard let routeRegistry = try RouteRegistries.registry(for: route, base: base) else { continue }
            routeTranscoders[route.pathPrefix] = Transcoder(registry: routeRegistry, transcodeLimits: transcodeLimits)
        }
        let contract = try contractGuard(routeRegistries: routeTranscoders.mapValues(\.registry))
        let metrics = GatewayMetrics(logWriters: logWriters, knownTypes: Set((registry.decodableMediaTypes
            + registry.encodableMediaTypes).map(\.essence)))
        let recorder = try configuration.recording.map { recording in
            try HARRecorder(directory: recording.directory.path, registry: registry,
                            options: RecordingOptions(maxExchangesPerFile: recording.maxExchangesPerFile,
                                                      redactedHeaders: recording.redactedHeaders,
                                                      redactedPaths: recording.redactedPaths,
                                                      redactedQueryParameters: ["access_token"]
                                                        + recording.redactedQueryParameters))
        }
        var observer = ExchangeObserver(logger: logger, accessLogger: accessLogger, metrics: metrics,
                                        recorder: recorder)
        let urls = URLRedaction(parameters: configuration.recording?.redactedQueryParameters ?? [])
        observer.urls = urls
        observer.recordingFilter = recorder.map { recorder in
            RecordingFilter(registry: registry, urls: urls, redactsBodies: !recorder.options.redactedPaths.isEmpty,
                            maxBytes: recorder.options.maxRecordedBodyBytes)
        }
        let group = MultiThreadedEventLoopGroup.singleton
        let threadPool = NIOThreadPool(numberOfThreads: System.coreCount)
        threadPool.start()
        defer { threadPool.shutdownGracefully { _ in } }
        let shared = ForwardingContext(configuration: configuration,
                                       transcoder: Transcoder(registry: base, transcodeLimits: transcodeLimits),
                                       routeTranscoders: routeTranscoders, observer: observer,
                                       pools: UpstreamPools(group: group),
                                       replay: try replayTransport(contract: contract?.checker),
                                       threadPool: threadPool, contract: contract)
        let proxy = ProxyServer(shared: shared, group: group)
        let bound = BoundAddresses(expected: configuration.admin == nil ? 1 : 2)
        let configuration = configuration
        do {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    try await proxy.run(host: configuration.listen.host, port: configuration.listen.port) { port in
                        await bound.add(main: port)
                    }
                }
                if let admin = configuration.admin {
                    let address = BindAddress.hostname(admin.host, port: admin.port)
                    let adminServer = Application(responder: AdminResponder(metrics: metrics),
                                                  server: AdminResponder.server(configuration),
                                                  configuration: .init(address: address, serverName: nil),
                                                  onServerRunning: { channel in
                                                      await bound.add(admin: channel.localAddress?.port)
                                                  },
                                                  logger: logger)
                    group.addTask { try await adminServer.run() }
                }
                if let recorder, let recording = configuration.recording {
                    // Files close after a minute even when traffic stops (the recorder rotates by age on flush);
                    // the folder is kept within its limits.
                    let retention = RecordingRetention(directory: recorder.directory,
                                                       prefix: recorder.options.fileNamePrefix,
                                                       maxBytes: recording.maxBytes, maxFiles: recording.maxFiles,
                                                       maxAge: recording.maxAge)
                    group.addTask {
                        try? await cancelWhenGracefulShutdown {
                            while true {
                                retention.sweep()
                                try await Task.sleep(for: .seconds(5))
                                try? recorder.flush()
                            }
                        }
                    }
                }
                group.addTask {
                    guard let (main, admin) = await bound.ports() else { return }
                    var addresses = Addresses(main: HostAndPort(host: configuration.listen.host, port: main))
                    if let admin, let host = configuration.admin?.host {
                        addresses.admin = HostAndPort(host: host, port: admin)
                    }
                    await onListening(addresses)
                }
            }
        } catch {
            try? recorder?.close()
            throw error
        }
        try recorder?.close()
    }
}

extension Gateway {
    /// The checks of ``GatewayConfiguration/contract``, its document loaded, or `nil` for none;
    /// a route with descriptor sets checks with its registry (`routeRegistries`, by path prefix).
    ///
    /// - Throws: ``GatewayConfigurationError`` naming the document and why it does not load.
    private func contractGuard(routeRegistries: [String: Registry]) throws(GatewayConfigurationError)
        -> ContractGuard?
    {
        guard let contract = configuration.contract else { return nil }
        let document: OpenAPIDocument
        do { document = try OpenAPIDocument(contentsOf: contract.document.path, registry: registry) } catch {
            throw GatewayConfigurationError("the OpenAPI document '\(contract.document.path)' does not load: \(error)")
        }
        return ContractGuard(document: document, registry: registry, settings: contract, routes: configuration.routes,
                             routeRegistries: routeRegistries)
    }

    /// The replayer of ``GatewayConfiguration/replayDirectory``, or `nil` for a live upstream.
    /// With a contract it refuses a recorded exchange the document has moved away from (502, listing
    /// the violations), so nothing is tested against a stale recording.
    private func replayTransport(contract: ContractChecker?) throws -> ReplayTransport? {
        guard let directory = configuration.replayDirectory else { return nil }
        let recordings = try FixtureFiles.discover([directory.path]).map { file in
            try RecordingReader().read(path: file.path)
        }
        return ReplayTransport(replayer: Replayer(recordings: recordings, contract: contract))
    }
}

/// Collects the ports the listeners bound, and hands them over once all are known.
private actor BoundAddresses {
    private let expected: Int
    private var main: Int?
    private var admin: Int?
    private var waiters: [CheckedContinuation<(Int, Int?)?, Never>] = []

    init(expected: Int) { self.expected = expected }

    func add(main port: Int?) { main = port ?? 0; resume() }
    func add(admin port: Int?) { admin = port ?? 0; resume() }

    func ports() async -> (Int, Int?)? {
        if let ready = ready { return ready }
        return await withCheckedContinuation { waiters.append($0) }
    }

    private var ready: (Int, Int?)? {
        guard let main, (main == 0 ? 0 : 1) + (admin == nil ? 0 : 1) >= 0 else { return nil }
        guard expected == 1 || admin != nil else { return nil }
        return (main, admin)
    }

    private func resume() {
        guard let ready else { return }
        for waiter in waiters { waiter.resume(returning: ready) }
        waiters.removeAll()
    }
}
