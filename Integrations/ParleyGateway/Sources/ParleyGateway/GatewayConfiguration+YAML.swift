public import Foundation
import Parley
import ParleyOpenAPI
import ParleyYAML

extension GatewayConfiguration {
    /// Reads a configuration file, YAML read with Parley's own YAML format:
    ///
    /// ```yaml
    /// listen: 127.0.0.1:8080
    /// upstream: http://127.0.0.1:9000
    /// upstream_protocol: http1      # or h2c: HTTP/2 by prior knowledge, streams over pooled connections
    /// upstream_timeout: 30          # seconds to the upstream's response head (504 after)
    /// header_timeout: 10            # seconds a client may take to send its head
    /// body_timeout: 60              # seconds a request body may go without a byte
    /// max_header_bytes: 16384       # 431 over this
    /// max_transcode_bytes: 16777216 # bytes buffered to transcode a body (502 over this)
    /// request_buffer_bytes: 65536   # request body held before going upstream (streams past it)
    /// send_timeout: 60              # seconds a client may take no byte of its answer
    /// upload_timeout: 300           # seconds a request body may take in all
    /// drain_timeout: 30             # seconds shutdown waits for open connections (then closes them)
    /// transcode_on_loop_bytes: 65536  # larger bodies are transcoded on a thread pool
    /// max_concurrent_transcodes: 8    # bodies over that being transcoded at once (503 over this)
    /// max_concurrent_streams: 100    # open HTTP/2 (h2c) streams per client connection
    /// max_upstream_connections: 512  # HTTP/1.1 connections busy at once per upstream (more wait)
    /// max_upload_connections: 384    # of those, held by bodies still arriving (the rest: ready requests)
    /// admin: 127.0.0.1:9090         # /health and /metrics
    /// trusted_proxies: [10.0.0.0/8] # peers whose Forwarded / X-Forwarded-* fields are kept
    /// routes:
    ///   - prefix: /legacy
    ///     upstream: http://127.0.0.1:9001
    ///     request_types: [application/xml]
    ///     upstream_timeout: 5
    ///     max_transcode_bytes: 1048576
    ///     transcode: preferred        # or when-unacceptable: only when the client refuses the upstream's type
    ///     upstream_protocol: h2c      # overrides the gateway's for this route
    ///   - prefix: /orders                # a protobuf upstream, answering JSON, YAML, XML clients
    ///     request_types: [application/x-protobuf]
    ///     descriptor_sets: [orders.binpb]  # protoc --descriptor_set_out --include_imports
    ///     message_type: shop.Order       # of bodies whose media type names none
    ///     contract: {requests: off}      # overrides contract.requests / contract.responses here
    /// contract:
    ///   openapi: openapi.yaml         # OpenAPI 3.0/3.1 document exchanges are checked against
    ///   requests: enforce             # off, report (default) or enforce (400 before the upstream)
    ///   responses: report             # off, report (default) or enforce (502 instead of the answer)
    /// record:
    ///   directory: recordings
    ///   max_exchanges_per_file: 500
    ///   redact_headers: [x-api-key]
    ///   redact_paths: [password, user.token]
    ///   redact_query: [api_key]       # besides access_token
    ///   max_bytes: 1073741824         # finished HAR files kept, in bytes (oldest removed first)
    ///   max_files: 1000               # finished HAR files kept
    ///   max_age: 604800               # seconds a finished HAR file is kept
    /// ```
    ///
    /// Every key is optional but `upstream`, which a flag may give instead (pass it as
    /// `upstream`). An unknown key is an error, so a typo does not go unnoticed.
    ///
    /// - Parameters:
    ///   - yaml: The file's bytes.
    ///   - upstream: The upstream to use when the file names none.
    /// - Throws: ``GatewayConfigurationError`` naming the key and what is wrong.
    public init(yaml: [UInt8], upstream: URL? = nil) throws(GatewayConfigurationError) {
        let value: Value
        do {
            value = try Registry(formats: [YAMLFormat()]).decode(yaml, contentType: MediaType.yaml)
        } catch {
            throw GatewayConfigurationError("the configuration is not valid YAML: \(error.message)")
        }
        let file = try ConfigurationReader(value.isNull ? .object([:]) : value, path: "")
        try file.allowOnly(["listen", "upstream", "upstream_timeout", "header_timeout", "body_timeout",
                            "max_header_bytes", "max_transcode_bytes", "admin", "routes", "record",
                            "trusted_proxies", "request_buffer_bytes", "send_timeout", "upload_timeout",
                            "transcode_on_loop_bytes", "max_concurrent_transcodes", "contract",
                            "max_concurrent_streams", "upstream_protocol", "max_upstream_connections",
                            "max_upload_connections", "drain_timeout"])
        guard let upstream = try file.url("upstream") ?? upstream else {
            throw GatewayConfigurationError("no upstream: give `upstream:` in the file or --upstream")
        }
        self.init(upstream: upstream)
        if let listen = try file.address("listen") { self.listen = listen }
        if let admin = try file.address("admin") { self.admin = admin }
        if let seconds = try file.seconds("upstream_timeout") { upstreamTimeout = seconds }
        if let seconds = try file.seconds("header_timeout") { headerTimeout = seconds }
        if let seconds = try file.seconds("body_timeout") { bodyTimeout = seconds }
        if let bytes = try file.positiveInteger("max_header_bytes") { maxHeaderBytes = bytes }
        if let bytes = try file.positiveInteger("max_transcode_bytes") { maxTranscodeBytes = bytes }
        if let bytes = try file.positiveInteger("request_buffer_bytes") { requestBufferBytes = bytes }
        if let seconds = try file.seconds("send_timeout") { sendTimeout = seconds }
        if let seconds = try file.seconds("upload_timeout") { uploadTimeout = seconds }
        if let seconds = try file.seconds("drain_timeout") { drainTimeout = seconds }
        if let bytes = try file.positiveInteger("transcode_on_loop_bytes") { transcodeOnLoopBytes = bytes }
        if let count = try file.positiveInteger("max_concurrent_transcodes") { maxConcurrentTranscodes = count }
        if let count = try file.positiveInteger("max_concurrent_streams") { maxConcurrentStreams = count }
        if let count = try file.positiveInteger("max_upstream_connections") { maxUpstreamConnections = count }
        if let count = try file.positiveInteger("max_upload_connections") { maxUploadConnections = count }
        if file.object["max_upload_connections"] == nil {
            maxUploadConnections = max(1, maxUpstreamConnections * 3 / 4)
        }
        guard maxUploadConnections <= maxUpstreamConnections else {
            throw GatewayConfigurationError("max_upload_connections: \(maxUploadConnections) is over "
                                            + "max_upstream_connections (\(maxUpstreamConnections))")
        }
        if let upstreamProtocol = try file.upstreamProtocol("upstream_protocol") {
            self.upstreamProtocol = upstreamProtocol
        }
        trustedProxies = try file.strings("trusted_proxies").map { text throws(GatewayConfigurationError) in
            do throws(GatewayConfigurationError) { return try AddressRange(parsing: text) } catch {
                throw GatewayConfigurationError("trusted_proxies: \(error.message)")
            }
        }
        routes = try file.list("routes").map { route throws(GatewayConfigurationError) in
            try route.allowOnly(["prefix", "upstream", "request_types", "upstream_timeout", "max_transcode_bytes",
                                 "transcode", "descriptor_sets", "message_type", "contract",
                                 "upstream_protocol"])
            guard let prefix = try route.string("prefix"), prefix.hasPrefix("/") else {
                throw GatewayConfigurationError("\(route.path).prefix: a path starting with / is required")
            }
            let mode = try route.string("transcode").map { text throws(GatewayConfigurationError) in
                guard let mode = TranscodeMode(rawValue: text) else {
                    throw GatewayConfigurationError(
                        "\(route.path).transcode: '\(text)' is not preferred or when-unacceptable")
                }
                return mode
            }
            let types = try route.strings("request_types").map { text throws(GatewayConfigurationError) in
                do { return try MediaType(parsing: text) } catch {
                    throw GatewayConfigurationError(
                        "\(route.path).request_types: '\(text)' is not a media type: \(error)")
                }
            }
            var built = Route(pathPrefix: prefix, upstream: try route.url("upstream"), requestTypes: types,
                              upstreamTimeout: try route.seconds("upstream_timeout"),
                              maxTranscodeBytes: try route.positiveInteger("max_transcode_bytes"),
                              transcode: mode ?? .preferred)
            if let contract = try route.object("contract") {
                try contract.allowOnly(["requests", "responses"])
                built.contractRequests = try contract.contractMode("requests")
                built.contractResponses = try contract.contractMode("responses")
            }
            built.descriptorSets = try route.strings("descriptor_sets").map { URL(fileURLWithPath: $0) }
            built.messageType = try route.string("message_type")
            built.upstreamProtocol = try route.upstreamProtocol("upstream_protocol")
            if built.messageType != nil, built.descriptorSets.isEmpty {
                throw GatewayConfigurationError("\(route.path).message_type: needs descriptor_sets")
            }
            return built
        }
        if let contract = try file.object("contract") {
            try contract.allowOnly(["openapi", "requests", "responses"])
            guard let document = try contract.string("openapi") else {
                throw GatewayConfigurationError("contract.openapi: required when contract is given")
            }
            self.contract = Contract(document: URL(fileURLWithPath: document),
                                     requests: try contract.contractMode("requests") ?? .report,
                                     responses: try contract.contractMode("responses") ?? .report)
        }
        if let record = try file.object("record") {
            try record.allowOnly(["directory", "max_exchanges_per_file", "redact_headers", "redact_paths",
                                  "redact_query", "max_bytes", "max_files", "max_age"])
            guard let directory = try record.string("directory") else {
                throw GatewayConfigurationError("record.directory: required when record is given")
            }
            recording = Recording(directory: URL(fileURLWithPath: directory),
                                  maxExchangesPerFile: try record.positiveInteger("max_exchanges_per_file") ?? 500,
                                  redactedHeaders: try record.strings("redact_headers"),
                                  redactedPaths: try record.strings("redact_paths"),
                                  redactedQueryParameters: try record.strings("redact_query"),
                                  maxBytes: try record.positiveInteger("max_bytes"),
                                  maxFiles: try record.positiveInteger("max_files"),
                                  maxAge: try record.seconds("max_age", upTo: 366 * 86_400))
        }
    }
}

extension MediaType {
    static let yaml = try! MediaType(parsing: "application/yaml")
}

/// Reads typed fields from one mapping of the configuration file, naming the key path in errors.
private struct ConfigurationReader {
    let object: Value.Object
    let path: String

    init(_ value: Value, path: String) throws(GatewayConfigurationError) {
        guard let object = value.objectValue else {
            let what = path.isEmpty ? "the file" : path
            throw GatewayConfigurationError("\(what): a mapping is required, found \(value.kindName)")
        }
        self.object = object
        self.path = path
    }

    private func key(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    func allowOnly(_ names: Set<String>) throws(GatewayConfigurationError) {
        for name in object.keys where !names.contains(name) {
            let known = names.sorted().joined(separator: ", ")
            throw GatewayConfigurationError("\(key(name)): unknown key (known: \(known))")
        }
    }

    func string(_ name: String) throws(GatewayConfigurationError) -> String? {
        guard let value = object[name], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw GatewayConfigurationError("\(key(name)): a string is required, found \(value.kindName)")
        }
        return text
    }

    func address(_ name: String) throws(GatewayConfigurationError) -> HostAndPort? {
        guard let text = try string(name) else { return nil }
        do { return try HostAndPort(parsing: text) } catch {
            throw GatewayConfigurationError("\(key(name)): \(error.message)")
        }
    }

    func url(_ name: String) throws(GatewayConfigurationError) -> URL? {
        guard let text = try string(name) else { return nil }
        return try GatewayConfiguration.upstreamURL(text, what: key(name))
    }

    func positiveInteger(_ name: String) throws(GatewayConfigurationError) -> Int? {
        guard let value = object[name], !value.isNull else { return nil }
        guard let number = value.integerValue, number > 0, number <= Int64(Int.max) else {
            throw GatewayConfigurationError("\(key(name)): a positive integer is required")
        }
        return Int(number)
    }

    func seconds(_ name: String, upTo most: Double = 86_400) throws(GatewayConfigurationError) -> Duration? {
        guard let value = object[name], !value.isNull else { return nil }
        guard let seconds = value.doubleValue, seconds > 0, seconds <= most else {
            throw GatewayConfigurationError("\(key(name)): seconds from 0 to \(Int(most)) are required")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    func strings(_ name: String) throws(GatewayConfigurationError) -> [String] {
        guard let value = object[name], !value.isNull else { return [] }
        if let single = value.stringValue { return [single] }
        guard let items = value.arrayValue, let texts = Optional(items.compactMap(\.stringValue)),
              texts.count == items.count else {
            throw GatewayConfigurationError("\(key(name)): a list of strings is required")
        }
        return texts
    }

    /// `off`, `report` or `enforce` (a YAML 1.1 reader's `false` for `off` too).
    func contractMode(_ name: String) throws(GatewayConfigurationError) -> GatewayConfiguration.ContractMode? {
        if case .bool(false) = object[name] { return .off }
        guard let text = try string(name) else { return nil }
        guard let mode = GatewayConfiguration.ContractMode(rawValue: text) else {
            throw GatewayConfigurationError("\(key(name)): '\(text)' is not off, report or enforce")
        }
        return mode
    }

    /// `http1` or `h2c`.
    func upstreamProtocol(_ name: String) throws(GatewayConfigurationError) -> GatewayConfiguration.UpstreamProtocol? {
        guard let text = try string(name) else { return nil }
        guard let upstreamProtocol = GatewayConfiguration.UpstreamProtocol(rawValue: text) else {
            throw GatewayConfigurationError("\(key(name)): '\(text)' is not http1 or h2c")
        }
        return upstreamProtocol
    }

    func object(_ name: String) throws(GatewayConfigurationError) -> ConfigurationReader? {
        guard let value = object[name], !value.isNull else { return nil }
        return try ConfigurationReader(value, path: key(name))
    }

    func list(_ name: String) throws(GatewayConfigurationError) -> [ConfigurationReader] {
        guard let value = object[name], !value.isNull else { return [] }
        guard let items = value.arrayValue else {
            throw GatewayConfigurationError("\(key(name)): a list is required, found \(value.kindName)")
        }
        var readers: [ConfigurationReader] = []
        for (index, item) in items.enumerated() {
            readers.append(try ConfigurationReader(item, path: "\(key(name))[\(index)]"))
        }
        return readers
    }
}

extension GatewayConfiguration {
    /// Checks an upstream address: `http` or `https` with a host.
    ///
    /// - Throws: ``GatewayConfigurationError`` naming `what`.
    public static func upstreamURL(_ text: String, what: String) throws(GatewayConfigurationError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else {
            throw GatewayConfigurationError("\(what): '\(text)' is not an http or https URL with a host")
        }
        return url
    }
}
