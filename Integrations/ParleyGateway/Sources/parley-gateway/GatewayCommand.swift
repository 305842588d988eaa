import ArgumentParser
import Foundation
import Logging
import Parley
import ParleyGateway
import ServiceLifecycle

/// `parley-gateway`: flags and the configuration file in, a running ``Gateway`` out.
struct GatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley-gateway",
        abstract: "A reverse proxy that answers every client in the format it asks for.",
        discussion: """
        Forwards every request to the upstream. A response whose Content-Type is the client's \
        first choice streams through byte for byte; one a linked format decodes is transcoded into \
        the type the client prefers (JSON, YAML, XML, property lists, MessagePack, CSV; a route's \
        `transcode: when-unacceptable` only when the client refuses the upstream's type); \
        otherwise 406. Upstream failures answer 502 or 504 with problem details (RFC 9457). \
        Request bodies are held up to request_buffer_bytes before going upstream; a client that \
        takes nothing of its answer for send_timeout (60 s) is disconnected (--config keys).

        Prints "listening on http://HOST:PORT" when ready; SIGTERM or SIGINT stop it after the \
        requests in flight (exit 0). Bad flags or configuration exit 2.

        Examples:
          parley-gateway --listen 127.0.0.1:8080 --upstream http://127.0.0.1:9000
          parley-gateway --listen 127.0.0.1:8080 --upstream http://api.internal --record recordings
          parley-gateway --listen 127.0.0.1:8080 --upstream http://api.internal --replay recordings
          parley-gateway --config gateway.yaml --admin 127.0.0.1:9090
          curl -H 'Accept: application/yaml' http://127.0.0.1:8080/users/7
        """)

    @Option(help: ArgumentHelp("Address to listen on (default 127.0.0.1:8080; port 0 picks a free one).", valueName: "HOST:PORT"))
    var listen: String?

    @Option(help: ArgumentHelp("The upstream every request goes to, unless a route of --config says otherwise.", valueName: "URL"))
    var upstream: String?

    @Option(help: ArgumentHelp("Seconds to wait for the upstream's response head before answering 504 (default 30).", valueName: "SECONDS"))
    var upstreamTimeout: Double?

    @Option(help: ArgumentHelp("A YAML configuration file (routes, limits, timeouts, recording); flags override it.", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("Record every exchange as HAR 1.2 files in this folder (`parley check DIR` reads them).", valueName: "DIR"))
    var record: String?

    @Option(help: ArgumentHelp("Answer from the recordings in this folder instead of the upstream, offline (what --record wrote; --upstream names the URL they were made against).", valueName: "DIR"))
    var replay: String?

    @Option(help: ArgumentHelp("Serve /health and /metrics (Prometheus) on this address.", valueName: "HOST:PORT"))
    var admin: String?

    @Option(help: ArgumentHelp("Log level of the access log on stderr: trace, debug, info, notice, warning, error, critical.", valueName: "LEVEL"))
    var logLevel: String = "info"

    func validate() throws {
        if config == nil, upstream == nil { throw ValidationError("--upstream URL is required (or a --config file naming one)") }
        if Logger.Level(rawValue: logLevel) == nil { throw ValidationError("--log-level '\(logLevel)' is not a log level") }
        if let upstreamTimeout, !(upstreamTimeout > 0 && upstreamTimeout <= 86_400) {
            throw ValidationError("--upstream-timeout must be seconds from 0 to 86400")
        }
    }

    /// The configuration: the file's, then each flag over it.
    func gatewayConfiguration() throws -> GatewayConfiguration {
        let flagUpstream = try upstream.map { text throws(GatewayConfigurationError) in
            try GatewayConfiguration.upstreamURL(text, what: "--upstream")
        }
        var configuration: GatewayConfiguration
        if let config {
            guard let bytes = FileManager.default.contents(atPath: config) else {
                throw GatewayConfigurationError("--config: cannot read '\(config)'")
            }
            do { configuration = try GatewayConfiguration(yaml: Array(bytes), upstream: flagUpstream) } catch {
                throw GatewayConfigurationError("\(config): \(error.message)")
            }
        } else {
            configuration = GatewayConfiguration(upstream: flagUpstream!)
        }
        if let flagUpstream { configuration.upstream = flagUpstream }
        if let listen { configuration.listen = try HostAndPort(parsing: listen) }
        if let admin { configuration.admin = try HostAndPort(parsing: admin) }
        if let upstreamTimeout { configuration.upstreamTimeout = .milliseconds(Int64((upstreamTimeout * 1000).rounded())) }
        if let replay {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: replay, isDirectory: &isFolder) else {
                throw GatewayConfigurationError("--replay: no folder or file '\(replay)'")
            }
            configuration.replayDirectory = URL(fileURLWithPath: replay)
        }
        if let record {
            do { try FileManager.default.createDirectory(atPath: record, withIntermediateDirectories: true) } catch {
                throw GatewayConfigurationError("--record: cannot create the folder '\(record)': \(error.localizedDescription)")
            }
            guard FileManager.default.isWritableFile(atPath: record) else {
                throw GatewayConfigurationError("--record: the folder '\(record)' is not writable")
            }
            var recording = configuration.recording ?? GatewayConfiguration.Recording(directory: URL(fileURLWithPath: record))
            recording.directory = URL(fileURLWithPath: record)
            configuration.recording = recording
        }
        return configuration
    }

    func run() async throws { try await serve() }

    /// Runs the gateway until SIGTERM or SIGINT.
    func serve() async throws {
        let configuration = try gatewayConfiguration()
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "parley-gateway")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let gateway = Gateway(configuration: configuration, registry: .linked, logger: logger) { addresses in
            var line = "listening on http://\(addresses.main)"
            if let admin = addresses.admin { line += " (admin on http://\(admin))" }
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        let services = ServiceGroup(configuration: .init(services: [gateway], gracefulShutdownSignals: [.sigterm, .sigint],
                                                         logger: logger))
        try await services.run()
    }
}
