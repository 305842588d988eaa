import Foundation
import Parley
import ParleyGateway
import Testing

/// The YAML configuration file and the addresses flags take.
@Suite(.timeLimit(.minutes(2))) struct ConfigurationTests {
    @Test func theDocumentedExampleReadsIntoEveryField() throws {
        let yaml = """
        listen: 127.0.0.1:8080
        upstream: http://127.0.0.1:9000
        upstream_timeout: 2.5
        header_timeout: 4
        body_timeout: 30
        max_header_bytes: 8192
        max_transcode_bytes: 1048576
        admin: "[::1]:9090"
        routes:
          - prefix: /legacy
            upstream: http://127.0.0.1:9001/base
            request_types: [application/xml, application/json]
            upstream_timeout: 5
            max_transcode_bytes: 4096
          - prefix: /legacy/v2/
        record:
          directory: recordings
          max_exchanges_per_file: 50
          redact_headers: [x-api-key]
          redact_paths: [password, user.token]
          redact_query: [api_key]
        """
        let configuration = try GatewayConfiguration(yaml: Array(yaml.utf8))
        #expect(configuration.listen == HostAndPort(host: "127.0.0.1", port: 8080))
        #expect(configuration.upstream.absoluteString == "http://127.0.0.1:9000")
        #expect(configuration.upstreamTimeout == .milliseconds(2500))
        #expect(configuration.headerTimeout == .seconds(4))
        #expect(configuration.bodyTimeout == .seconds(30))
        #expect(configuration.maxHeaderBytes == 8192)
        #expect(configuration.maxTranscodeBytes == 1_048_576)
        #expect(configuration.admin == HostAndPort(host: "::1", port: 9090))
        #expect(configuration.admin?.description == "[::1]:9090")
        #expect(configuration.routes.count == 2)
        let legacy = configuration.routes[0]
        #expect(legacy.upstream?.absoluteString == "http://127.0.0.1:9001/base")
        #expect(legacy.requestTypes.map(\.essence) == ["application/xml", "application/json"])
        #expect(legacy.upstreamTimeout == .seconds(5))
        #expect(legacy.maxTranscodeBytes == 4096)
        #expect(configuration.recording?.directory.lastPathComponent == "recordings")
        #expect(configuration.recording?.maxExchangesPerFile == 50)
        #expect(configuration.recording?.redactedHeaders == ["x-api-key"])
        #expect(configuration.recording?.redactedPaths == ["password", "user.token"])
        #expect(configuration.recording?.redactedQueryParameters == ["api_key"])
    }

    @Test func theLongestPrefixAtASegmentBoundaryChoosesTheRoute() throws {
        var configuration = GatewayConfiguration(upstream: URL(string: "http://127.0.0.1:9000")!)
        configuration.routes = [.init(pathPrefix: "/api"), .init(pathPrefix: "/api/v2/"), .init(pathPrefix: "/")]
        #expect(configuration.route(for: "/api")?.pathPrefix == "/api")
        #expect(configuration.route(for: "/api/users?x=1")?.pathPrefix == "/api")
        #expect(configuration.route(for: "/api/v2/users")?.pathPrefix == "/api/v2/")
        #expect(configuration.route(for: "/api/v2")?.pathPrefix == "/api/v2/")
        #expect(configuration.route(for: "/apis")?.pathPrefix == "/")
        #expect(GatewayConfiguration(upstream: URL(string: "http://a")!).route(for: "/x") == nil)
        // Of two routes with the same prefix, the first listed; a query's `/` is not the path's.
        configuration.routes = [.init(pathPrefix: "/a", upstream: URL(string: "http://first")),
                                .init(pathPrefix: "/a", upstream: URL(string: "http://second"))]
        #expect(configuration.route(for: "/a/b")?.upstream?.host == "first")
        #expect(configuration.route(for: "/ab?/a/b") == nil)
    }

    @Test(arguments: [
        ("upstream: http://a\nlisten: nowhere\n", "listen"),
        ("upstream: http://a\nupstrem_timeout: 3\n", "upstrem_timeout: unknown key"),
        ("upstream: ftp://a\n", "upstream: 'ftp://a' is not an http or https URL"),
        ("listen: 127.0.0.1:1\n", "no upstream"),
        ("upstream: http://a\nupstream_timeout: -1\n", "upstream_timeout"),
        ("upstream: http://a\nmax_header_bytes: lots\n", "max_header_bytes: a positive integer"),
        ("upstream: http://a\nroutes:\n  - prefix: api\n", "routes[0].prefix"),
        ("upstream: http://a\nroutes:\n  - prefix: /a\n    request_types: [not a type]\n", "routes[0].request_types"),
        ("upstream: http://a\nroutes: {prefix: /a}\n", "routes: a list is required"),
        ("upstream: http://a\nrecord: {max_exchanges_per_file: 3}\n", "record.directory"),
        ("upstream: [http://a\n", "not valid YAML"),
        ("- just\n- a list\n", "a mapping is required"),
    ])
    func aBadFileIsAnErrorNamingTheKey(yaml: String, expected: String) {
        #expect {
            try GatewayConfiguration(yaml: Array(yaml.utf8))
        } throws: { error in
            (error as? GatewayConfigurationError)?.message.contains(expected) == true
        }
    }

    @Test func hostAndPortParsing() throws {
        #expect(try HostAndPort(parsing: "localhost:0") == HostAndPort(host: "localhost", port: 0))
        #expect(try HostAndPort(parsing: "[::1]:80") == HostAndPort(host: "::1", port: 80))
        for bad in ["8080", ":80", "host:", "host:70000", "host:-1", "host:x"] {
            #expect(throws: GatewayConfigurationError.self) { try HostAndPort(parsing: bad) }
        }
    }
}
