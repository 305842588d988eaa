import ArgumentParser
import Foundation
import Logging
import Parley
import ParleyGateway
import ServiceLifecycle
import UnixSignals

/// `parley-gateway`: flags and the configuration file in, a running ``Gateway`` out.
struct GatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley-gateway",
        abstract: "A reverse proxy that answers every client in the format it asks for.",
        discussion: """
        Forwards every request to the upstream. A response whose Content-Type is the client's \
        first choice streams through byte for byte; one a linked format decodes is transcoded into \
        the type the client prefers (JSON, YAML, XML, property lists, MessagePack, CSV, CBOR, and \
        Protocol Buffers on routes of --config that name descriptor_sets and a message_type; a \
        route's `transcode: when-unacceptable` only when the client refuses the upstream's type); \
        otherwise 406. Upstream failures answer 502 or 504 with problem details (RFC 9457). \
        Request bodies are held up to request_buffer_bytes before going upstream; a client that \
        takes nothing of its answer for send_timeout (60 s) is disconnected (--config keys). \
        Clients speak HTTP/1.1, or h2c by prior knowledge or by `Upgrade: h2c` on their first request. \
        Upstreams speak HTTP/1.1, or h2c with `upstream_protocol: h2c` (top level or per route); \
        at most max_upstream_connections (512) HTTP/1.1 connections to one upstream are busy at \
        once, max_upload_connections (384) of them (or of an h2c upstream's streams) for requests \
        whose body is still arriving.

        With --openapi, requests (as they go upstream) and responses (as the upstream sent them) \
        are checked against the OpenAPI document: `report` (the default) logs the violations, \
        counts them in parley_gateway_contract_violations_total and writes them into the \
        recording (`_parley.contract`); `enforce` answers a violating request 400 before the \
        upstream sees it and replaces a violating response by a 502, each a problem document \
        listing the violations. The --config section `contract:` sets `requests:` and \
        `responses:` (off, report, enforce), a route's `contract:` overrides them. Bodies that \
        pass through are held within max_transcode_bytes to be checked; a longer one streams \
        unchecked (a contract-unchecked warning).

        Prints "listening on http://HOST:PORT" when ready; SIGTERM or SIGINT stop it after the \
        requests in flight (exit 0), closing the connections still open after --drain-timeout \
        (30 s). Bad flags or configuration exit 2.

        Examples:
          parley-gateway --listen 127.0.0.1:8080 --upstream http://127.0.0.1:9000
          parley-gateway --listen 127.0.0.1:8080 --upstream http://api.internal --record recordings
          parley-gateway --listen 127.0.0.1:8080 --upstream http://api.internal --replay recordings
          parley-gateway --config gateway.yaml --admin 127.0.0.1:9090
          parley-gateway --upstream http://api.internal --openapi openapi.yaml --record recordings
          parley-gateway --upstream http://api.internal --access-log access.log --trusted-proxy 10.0.0.0/8
          curl -H 'Accept: application/yaml' http://127.0.0.1:8080/users/7
        """)

    @Option(help: ArgumentHelp("Address to listen on (default 127.0.0.1:8080; port 0 picks a free one).",
                               valueName: "HOST:PORT"))
    var listen: String?

    @Option(help: ArgumentHelp("The upstream every request goes to, unless a route of --config says otherwise.",
                               valueName: "URL"))
    var upstream: String?

    @Option(help: ArgumentHelp("Seconds to wait for the upstream's response head before answering 504 "
                               + "(default 30).",
                               valueName: "SECONDS"))
    var upstreamTimeout: Double?

    @Option(help: ArgumentHelp("Seconds SIGTERM or SIGINT waits for open connections to finish before closing "
                               + "them (default 30).",
                               valueName: "SECONDS"))
    var drainTimeout: Double?

    @Option(help: ArgumentHelp("A YAML configuration file (routes, limits, timeouts, recording, "
                               + "contract); flags override it.",
                               valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("Record every exchange as HAR 1.2 files in this folder (`parley check DIR` "
                               + "reads them).",
                               valueName: "DIR"))
    var record: String?

    @Option(help: ArgumentHelp("Answer from the recordings in this folder instead of the upstream, offline "
                               + "(what --record wrote; --upstream names the URL they were made against).",
                               valueName: "DIR"))
    var replay: String?

    @Option(help: ArgumentHelp("Check exchanges against this OpenAPI 3.0/3.1 document (JSON or YAML); "
                               + "the --config section contract: says report (default) or enforce.",
                               valueName: "SPEC"))
    var openapi: String?

    @Option(help: ArgumentHelp("Serve /health and /metrics (Prometheus) on this address.", valueName: "HOST:PORT"))
    var admin: String?

    @Option(help: ArgumentHelp("The least severe level logged: trace, debug, info (the access log), notice, warning, "
                               + "error, critical.", valueName: "LEVEL"))
    var logLevel: String = "info"

    @Option(help: ArgumentHelp("""
        Where the access log (one line per request) goes: off, stderr (default), or a file appended to. \
        Lines go through a bounded buffer to a writer thread; when it is full they are dropped and \
        counted (parley_gateway_log_lines_dropped_total), so a slow log never slows forwarding.
        """, valueName: "off|stderr|FILE"))
    var accessLog: String = "stderr"

    @Option(name: .customLong("trusted-proxy"),
            help: ArgumentHelp("A proxy in front of the gateway (an address or CIDR block; repeatable) whose Forwarded "
                               + "and X-Forwarded-* fields are kept; from other peers they are dropped.",
                               valueName: "CIDR"))
    var trustedProxies: [String] = []

    func validate() throws {
        if config == nil, upstream == nil {
            throw ValidationError("--upstream URL is required (or a --config file naming one)")
        }
        if Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("--log-level '\(logLevel)' is not a log level")
        }
        if let upstreamTimeout, !(upstreamTimeout > 0 && upstreamTimeout <= 86_400) {
            throw ValidationError("--upstream-timeout must be seconds from 0 to 86400")
        }
        if let drainTimeout, !(drainTimeout > 0 && drainTimeout <= 86_400) {
            throw ValidationError("--drain-timeout must be seconds from 0 to 86400")
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
        if !trustedProxies.isEmpty {
            configuration.trustedProxies = try trustedProxies.map { text throws(GatewayConfigurationError) in
                do throws(GatewayConfigurationError) { return try AddressRange(parsing: text) } catch {
                    throw GatewayConfigurationError("--trusted-proxy: \(error.message)")
                }
            }
        }
        if let upstreamTimeout {
            configuration.upstreamTimeout = .milliseconds(Int64((upstreamTimeout * 1000).rounded()))
        }
        if let drainTimeout {
            configuration.drainTimeout = .milliseconds(Int64((drainTimeout * 1000).rounded()))
        }
        if let replay {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: replay, isDirectory: &isFolder) else {
                throw GatewayConfigurationError("--replay: no folder or file '\(replay)'")
            }
            configuration.replayDirectory = URL(fileURLWithPath: replay)
        }
        if let openapi {
            let document = URL(fileURLWithPath: openapi)
            var contract = configuration.contract ?? GatewayConfiguration.Contract(document: document)
            contract.document = document
            configuration.contract = contract
        }
        let checked = configuration.routes.first { $0.contractRequests != nil || $0.contractResponses != nil }
        if configuration.contract == nil, let route = checked {
            throw GatewayConfigurationError("route \(route.pathPrefix): contract: needs a document "
                                            + "(--openapi SPEC or contract.openapi)")
        }
        if let record {
            do { try FileManager.default.createDirectory(atPath: record, withIntermediateDirectories: true) } catch {
                throw GatewayConfigurationError(
                    "--record: cannot create the folder '\(record)': \(error.localizedDescription)")
            }
            guard FileManager.default.isWritableFile(atPath: record) else {
                throw GatewayConfigurationError("--record: the folder '\(record)' is not writable")
            }
            let directory = URL(fileURLWithPath: record)
            var recording = configuration.recording ?? GatewayConfiguration.Recording(directory: directory)
            recording.directory = URL(fileURLWithPath: record)
            configuration.recording = recording
        }
        return configuration
    }

    /// The access log's destination, `nil` for off.
    var accessLogDestination: LogLineWriter.Destination? {
        switch accessLog {
        case "off": nil
        case "stderr": .standardError
        default: .file(accessLog)
        }
    }

    func run() async throws { try await serve() }

    /// Runs the gateway until SIGTERM or SIGINT.
    func serve() async throws {
        let configuration = try gatewayConfiguration()
        let level = Logger.Level(rawValue: logLevel) ?? .info
        // Every line goes through a writer thread: standard error (or the access-log file) may
        // be a pipe that is read slowly, or not at all.
        let standardError = try LogLineWriter(.standardError)
        LoggingSystem.bootstrap { label in
            var handler = BufferedLogHandler(label: label, writer: standardError)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "parley-gateway")
        logger.logLevel = level
        var writers = [standardError]
        let accessLogger: Logger
        switch accessLogDestination {
        case nil:
            accessLogger = Logger(label: "parley-gateway.access") { _ in SwiftLogNoOpLogHandler() }
        case .standardError:
            accessLogger = logger
        case .file(let path):
            let file: LogLineWriter
            do throws(GatewayConfigurationError) { file = try LogLineWriter(.file(path)) } catch {
                throw GatewayConfigurationError("--access-log: \(error.message)")
            }
            writers.append(file)
            accessLogger = Logger(label: "parley-gateway") { label in
                var handler = BufferedLogHandler(label: label, writer: file)
                handler.logLevel = level
                return handler
            }
        }
        defer { for writer in writers { writer.close() } }
        let gateway = Gateway(configuration: configuration, registry: .linked, logger: logger,
                              accessLogger: accessLogger, logWriters: writers) { addresses in
            var line = "listening on http://\(addresses.main)"
            if let admin = addresses.admin { line += " (admin on http://\(admin))" }
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        let services = ServiceGroup(configuration: .init(services: [gateway],
                                                         gracefulShutdownSignals: [.sigterm, .sigint],
                                                         logger: logger))
        try await services.run()
    }
}
