public import Foundation
public import Parley

/// Everything a gateway needs to run: where it listens, where it forwards, its limits and
/// timeouts, its routes, and what it records.
///
/// Build one in code, or read the YAML file `parley-gateway --config FILE` takes with
/// ``init(yaml:upstream:)``; flags then override single fields.
///
/// ```swift
/// var configuration = GatewayConfiguration(upstream: URL(string: "http://127.0.0.1:9000")!)
/// configuration.routes = [.init(pathPrefix: "/legacy", requestTypes: [MediaType("application/xml")])]
/// let gateway = Gateway(configuration: configuration, registry: .linked)
/// ```
public struct GatewayConfiguration: Sendable {
    /// Host and port the proxy listens on. Default `127.0.0.1:8080`.
    public var listen: HostAndPort
    /// Where requests go unless a route says otherwise.
    public var upstream: URL
    /// The longest wait for an upstream's response head; longer is 504. Once the head is in, the
    /// longest silence of its body (the longest of these timeouts over the routes): a body that
    /// stalls is cut off (504 when it was being transcoded). Default 30 s.
    public var upstreamTimeout: Duration
    /// The longest a client may take to send a request head, from connecting or from its previous
    /// answer; longer closes the connection (after a 408 when the head had started, silently when
    /// the connection was idle). The admin port has it too. Default 10 s.
    public var headerTimeout: Duration
    /// The longest a request body may go without a byte once its head is in; longer closes the
    /// connection (after a 408 when no answer has started). Bodies that keep arriving, however
    /// slowly, are not cut. Default 60 s (nginx's `client_body_timeout`).
    public var bodyTimeout: Duration
    /// The most bytes of request header field names and values a client may send (also the
    /// most for one field); more, or more than 1000 fields, is 431 and the connection closed.
    /// Default 16 KiB.
    public var maxHeaderBytes: Int
    /// The most bytes of a body the gateway buffers to transcode it (response or request),
    /// after undoing its content coding; more is 502 (response) or 413 (request). Bodies
    /// streamed through untouched have no limit. Default 16 MiB.
    public var maxTranscodeBytes: Int
    /// Routes by path prefix; the longest matching prefix wins.
    public var routes: [Route]
    /// Where and how exchanges are recorded, or `nil` for no recording.
    public var recording: Recording?
    /// A folder of recordings (HAR, cassettes, raw HTTP) to answer from instead of the upstream,
    /// offline (`--replay DIR`): requests match recorded ones by method and upstream URL, and the
    /// answers are negotiated and transcoded as live ones are. `nil` for a live upstream.
    public var replayDirectory: URL?
    /// Host and port of the admin listener (`/health`, `/metrics`), or `nil` for none.
    public var admin: HostAndPort?
    /// Peers (proxies in front of the gateway) whose `Forwarded` and `X-Forwarded-*` fields are
    /// kept and added to; from any other peer they are dropped. Empty by default: the gateway
    /// then trusts no client's claim about where a request came from.
    public var trustedProxies: [AddressRange] = []
    /// The most request-body bytes held before the request goes upstream: a body that ends
    /// within it is sent whole, so a slow upload holds no upstream connection while it trickles
    /// (nginx's `proxy_request_buffering`); a longer one streams once it passes it. Default 64 KiB.
    public var requestBufferBytes = 64 * 1024
    /// The longest a client may go without taking a byte of its answer while more waits to be
    /// sent; longer closes the connection (nginx's `send_timeout`). Default 60 s.
    public var sendTimeout: Duration = .seconds(60)
    /// The longest a request body may take in all, however steadily it arrives; longer closes the
    /// connection (after a 408 when no answer has started). Default 300 s.
    public var uploadTimeout: Duration = .seconds(300)
    /// The longest graceful shutdown (SIGTERM) waits for the main port's connections to finish
    /// (HTTP/1.1 answers in flight, h2c streams open at `GOAWAY`); then every connection still open
    /// is closed, the number logged, and the gateway stops (nginx's `worker_shutdown_timeout`).
    /// Default 30 s.
    public var drainTimeout: Duration = .seconds(30)
    /// Transcoded bodies up to this many bytes are decoded and encoded on the connection's event
    /// loop; larger ones on a thread pool, so one large transcode never stalls the other
    /// connections of its loop. Default 64 KiB.
    public var transcodeOnLoopBytes = 64 * 1024
    /// The most bodies over ``transcodeOnLoopBytes`` buffered or transcoded at once; another
    /// is 503 (with `Retry-After`). Default 8.
    public var maxConcurrentTranscodes = 8
    /// The OpenAPI document exchanges are checked against, and how; `nil` checks nothing.
    public var contract: Contract?
    /// The most HTTP/2 streams one h2c client connection may have open at once
    /// (`SETTINGS_MAX_CONCURRENT_STREAMS`); a stream over it is refused with `RST_STREAM`. Default 100.
    public var maxConcurrentStreams = 100
    /// The most HTTP/1.1 connections to one upstream busy with an exchange at once, over all the
    /// gateway's event loops; a request past it waits for one to come free, up to its upstream
    /// timeout (then 504). Default 512.
    public var maxUpstreamConnections = 512
    /// The most of ``maxUpstreamConnections`` that requests whose body is still arriving (past
    /// ``requestBufferBytes``) may hold: the rest is kept for requests whose body is whole, so slow
    /// uploads cannot take every connection. An h2c upstream's streams still uploading count
    /// against it too. Default 384.
    public var maxUploadConnections = 384
    /// How the gateway speaks to its upstream, and to a route's unless the route says otherwise.
    /// Default ``UpstreamProtocol/http1``.
    public var upstreamProtocol = UpstreamProtocol.http1

    /// Creates a configuration with the defaults above.
    public init(listen: HostAndPort = HostAndPort(host: "127.0.0.1", port: 8080), upstream: URL,
                upstreamTimeout: Duration = .seconds(30), headerTimeout: Duration = .seconds(10),
                bodyTimeout: Duration = .seconds(60), maxHeaderBytes: Int = 16 * 1024,
                maxTranscodeBytes: Int = 16 * 1024 * 1024,
                routes: [Route] = [], recording: Recording? = nil, admin: HostAndPort? = nil) {
        self.listen = listen
        self.upstream = upstream
        self.upstreamTimeout = upstreamTimeout
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.maxHeaderBytes = maxHeaderBytes
        self.maxTranscodeBytes = maxTranscodeBytes
        self.routes = routes
        self.recording = recording
        self.admin = admin
    }

    /// A path prefix with its own upstream, accepted request types, limit and timeout.
    public struct Route: Sendable, Equatable {
        /// The prefix a request path must start with, at a segment boundary (`/api` matches
        /// `/api` and `/api/users`, not `/apis`).
        public var pathPrefix: String
        /// The upstream for this route; `nil` uses the gateway's.
        public var upstream: URL?
        /// The body types the upstream accepts, in preference order. A request body in another
        /// type the registry decodes is transcoded to the first; one it cannot decode is 415.
        /// Empty: bodies go through untouched.
        public var requestTypes: [MediaType]
        /// Overrides ``GatewayConfiguration/upstreamTimeout`` for this route.
        public var upstreamTimeout: Duration?
        /// Overrides ``GatewayConfiguration/maxTranscodeBytes`` for this route.
        public var maxTranscodeBytes: Int?
        /// Serialized `FileDescriptorSet` files (`protoc --descriptor_set_out --include_imports`):
        /// the route's upstream speaks Protocol Buffers with these message types, transcoded to
        /// and from the types clients ask for (ProtoJSON mapping). Empty: no protobuf.
        public var descriptorSets: [URL] = []
        /// The message type (`pkg.Msg`) of protobuf bodies whose media type names none
        /// (`application/x-protobuf` without `messageType=`), in both directions.
        public var messageType: String?
        /// When a body is transcoded rather than passed through. Default
        /// ``GatewayConfiguration/TranscodeMode/preferred``.
        public var transcode: TranscodeMode
        /// Overrides ``Contract/requests`` on this route.
        public var contractRequests: ContractMode?
        /// Overrides ``Contract/responses`` on this route.
        public var contractResponses: ContractMode?
        /// Overrides ``GatewayConfiguration/upstreamProtocol`` for this route.
        public var upstreamProtocol: UpstreamProtocol?

        /// Creates a route.
        public init(pathPrefix: String, upstream: URL? = nil, requestTypes: [MediaType] = [],
                    upstreamTimeout: Duration? = nil, maxTranscodeBytes: Int? = nil,
                    transcode: TranscodeMode = .preferred) {
            self.pathPrefix = pathPrefix
            self.upstream = upstream
            self.requestTypes = requestTypes
            self.upstreamTimeout = upstreamTimeout
            self.maxTranscodeBytes = maxTranscodeBytes
            self.transcode = transcode
        }

        /// Whether `path` (without its query) falls under ``pathPrefix``, byte for byte.
        public func matches(_ path: Substring) -> Bool {
            var prefix = pathPrefix.utf8[...]
            if prefix.last == UInt8(ascii: "/") { prefix = prefix.dropLast() }
            guard path.utf8.starts(with: prefix) else { return false }
            let rest = path.utf8.dropFirst(prefix.count)
            return rest.first == nil || rest.first == UInt8(ascii: "/")
        }
    }

    /// What `--record DIR` writes (see `HARRecorder` in ParleyFixtures).
    public struct Recording: Sendable, Equatable {
        /// The folder HAR files go to; created when missing.
        public var directory: URL
        /// A file is closed after this many exchanges. Default 500.
        public var maxExchangesPerFile: Int
        /// Header fields redacted besides `Authorization`, `Proxy-Authorization`, `Cookie` and
        /// `Set-Cookie`, which always are.
        public var redactedHeaders: [String]
        /// Body paths redacted (`password`, `user.token`, `items[*].secret`) in bodies a
        /// registered format decodes.
        public var redactedPaths: [String]
        /// Query parameters whose values are redacted in recorded URLs (the request target,
        /// `Location`, `Content-Location`, `Referer`, `Link`) and in access-log lines, besides
        /// `access_token` (RFC 6750 §2.3), which always is; `name[]` and `name[0]` count as `name`.
        public var redactedQueryParameters: [String]
        /// The most bytes of finished HAR files the folder keeps; the oldest are removed past
        /// it (checked every 5 seconds). `nil`: no limit.
        public var maxBytes: Int?
        /// The most finished HAR files the folder keeps; the oldest are removed past it. `nil`: no limit.
        public var maxFiles: Int?
        /// Finished HAR files older than this are removed. `nil`: kept for ever.
        public var maxAge: Duration?

        /// Creates recording settings.
        public init(directory: URL, maxExchangesPerFile: Int = 500, redactedHeaders: [String] = [],
                    redactedPaths: [String] = [], redactedQueryParameters: [String] = [],
                    maxBytes: Int? = nil, maxFiles: Int? = nil, maxAge: Duration? = nil) {
            self.directory = directory
            self.maxBytes = maxBytes
            self.maxFiles = maxFiles
            self.maxAge = maxAge
            self.maxExchangesPerFile = maxExchangesPerFile
            self.redactedHeaders = redactedHeaders
            self.redactedPaths = redactedPaths
            self.redactedQueryParameters = redactedQueryParameters
        }
    }

    /// The route for `path` (its query ignored): the longest matching prefix (the first of equals),
    /// or `nil`.
    public func route(for path: String) -> Route? {
        let pathOnly = path.utf8.firstIndex(of: UInt8(ascii: "?")).map { path[..<$0] } ?? path[...]
        var longest: Int?
        for index in routes.indices where routes[index].matches(pathOnly) {
            if let longest, routes[longest].pathPrefix.utf8.count >= routes[index].pathPrefix.utf8.count { continue }
            longest = index
        }
        return longest.map { routes[$0] }
    }
}

/// A `HOST:PORT` pair, as the `--listen` and `--admin` flags take it.
public struct HostAndPort: Sendable, Equatable, CustomStringConvertible {
    /// The host name or address (`127.0.0.1`, `::1`, `localhost`).
    public var host: String
    /// The port; 0 asks the system for a free one.
    public var port: Int

    /// Creates a pair.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` (`[::1]:8080` for IPv6).
    ///
    /// - Throws: ``GatewayConfigurationError`` when there is no port or it is not 0…65535.
    public init(parsing text: String) throws(GatewayConfigurationError) {
        guard let colon = text.lastIndex(of: ":") else {
            throw GatewayConfigurationError("'\(text)' is not HOST:PORT")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw GatewayConfigurationError("'\(text)' is not HOST:PORT with a port from 0 to 65535")
        }
        self.init(host: host, port: port)
    }

    /// `HOST:PORT`, the host bracketed when it is an IPv6 address.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// A configuration that cannot be used: a bad flag value or a bad YAML file, with where and why.
public struct GatewayConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the key or flag.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
