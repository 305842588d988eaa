import Foundation
import NIOHTTP1
import Parley
import ParleyCompression
import ParleyGateway
import ParleyHTTP
import Testing

/// The gateway's answer to each combination of upstream type and client `Accept`.
@Suite(.timeLimit(.minutes(2))) struct TranscodingTests {
    /// The value formats whose types the gateway transcodes between, by their main media type.
    static let types = ["application/json", "application/yaml", "application/xml", "application/x-plist",
                        "application/msgpack", "text/csv"]
    /// Formats that keep the value's types (XML and CSV turn scalars into text).
    static let lossless: Set<String> = ["application/json", "application/yaml", "application/x-plist",
                                        "application/msgpack"]

    @Test func aBodyTheClientAcceptsStreamsThroughUntouched() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            let direct = try await fetch(upstream.absoluteString + "/value")
            try await withGateway(upstream: upstream) { gateway in
                let answer = try await fetch("http://\(gateway.main)/value", headers: [("Accept", "application/json")])
                #expect(answer.status == 200)
                #expect(answer.body == direct.body)
                #expect(answer.header("Content-Type") == direct.header("Content-Type"))
                #expect(answer.header("ETag") == TestUpstream.etag)   // not transcoded: still strong
                #expect(answer.header("Via") == "1.1 parley-gateway")
                // Another `Accept` would have had it transcoded: a cache must keep the two apart.
                #expect(answer.header("Vary") == "Accept")
            }
        }
    }

    /// Every answer the client's `Accept` decided says so in `Vary`, passed through or
    /// transcoded, added to what the upstream's names; an answer no `Accept` could change does not.
    @Test func vary() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let cases: [(path: String, accept: String?, vary: String?)] = [
                    ("/value?vary=Accept-Encoding", "application/json", "Accept-Encoding, Accept"),
                    ("/value", nil, "Accept"),
                    ("/value?vary=Accept", "application/yaml", "Accept"),
                    ("/value?vary=accept-encoding,%20accept", "application/json", "accept-encoding, accept"),
                    ("/value?vary=Accept-Encoding", "application/yaml", "Accept-Encoding, Accept"),
                    ("/value?vary=*", "application/msgpack", "*"),
                    ("/bytes/10", "application/octet-stream", nil),
                    ("/bytes/10", nil, nil),
                ]
                for (path, accept, vary) in cases {
                    let answer = try await fetch("http://\(gateway.main)\(path)",
                                                 headers: accept.map { [("Accept", $0)] } ?? [])
                    #expect(answer.status == 200, "\(path) \(accept ?? "no Accept")")
                    #expect(answer.header("Vary") == vary, "\(path) \(accept ?? "no Accept")")
                }
            }
        }
    }

    @Test(arguments: types)
    func everyPairOfValueFormatsTranscodes(from upstreamType: String) async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let original = try await fetch(upstream.absoluteString + "/value?type=\(upstreamType)")
                let upstreamValue = try Registry.linked.decode(original.body,
                                                               contentType: MediaType(parsing: upstreamType))
                for clientType in Self.types where clientType != upstreamType {
                    let answer = try await fetch("http://\(gateway.main)/value?type=\(upstreamType)",
                                                 headers: [("Accept", clientType)])
                    guard (try? ParleyServer(registry: Registry.linked).reply(with: upstreamValue,
                                                                              accepting: clientType)) != nil else {
                        // The value does not fit (an XML document is one element, not CSV's rows): 406.
                        #expect(answer.status == 406, "\(upstreamType) -> \(clientType): \(answer.text)")
                        #expect(answer.text.contains("cannot be written as \(clientType)"))
                        continue
                    }
                    #expect(answer.status == 200, "\(upstreamType) -> \(clientType): \(answer.text)")
                    let expected = try ParleyServer(registry: Registry.linked).reply(with: upstreamValue,
                                                                                     accepting: clientType)
                    #expect(answer.header("Content-Type") == expected.contentType.description,
                            "\(upstreamType) -> \(clientType)")
                    #expect(answer.body == expected.body, "\(upstreamType) -> \(clientType)")
                    #expect(answer.header("Content-Length") == String(answer.body.count))
                    #expect(answer.header("Vary") == "Accept")
                    #expect(answer.header("ETag") == "W/" + TestUpstream.etag)
                    #expect(answer.header("Cache-Control") == "max-age=60")
                    if Self.lossless.contains(upstreamType), Self.lossless.contains(clientType) {
                        let decoded = try Registry.linked.decode(answer.body,
                                                                 contentType: MediaType(parsing: clientType))
                        #expect(decoded == TestUpstream.value, "\(upstreamType) -> \(clientType) changed the value")
                    }
                }
            }
        }
    }

    /// The type the client prefers cannot hold the value (an XML document as CSV rows): the next
    /// type it accepts that can is sent, as the server's reply chooses it.
    @Test func aValueThePreferredTypeCannotHoldIsSentAsTheNextAcceptedType() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let accept = "text/csv, application/msgpack;q=0.5"
                let answer = try await fetch("http://\(gateway.main)/value?type=application/xml",
                                             headers: [("Accept", accept)])
                let original = try await fetch(upstream.absoluteString + "/value?type=application/xml")
                let value = try Registry.linked.decode(original.body,
                                                       contentType: MediaType(parsing: "application/xml"))
                let expected = try ParleyServer(registry: Registry.linked).reply(with: value, accepting: accept)
                #expect(expected.contentType.essence == "application/msgpack")
                #expect(answer.status == 200, "\(answer.text)")
                #expect(answer.header("Content-Type") == expected.contentType.description)
                #expect(answer.body == expected.body)
                #expect(answer.header("Content-Length") == String(answer.body.count))
            }
        }
    }

    @Test func nothingTheClientAcceptsIs406ListingWhatTheGatewayCouldProduce() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let answer = try await fetch("http://\(gateway.main)/value", headers: [("Accept", "image/png")])
                #expect(answer.status == 406)
                #expect(answer.header("Content-Type")?.hasPrefix("application/problem+json") == true)
                let problem = try #require(ProblemDetails(value: Registry.linked.decode(
                    answer.body, contentType: MediaType(parsing: "application/json"))))
                let acceptable = problem.extensions["acceptable"]?.arrayValue?.compactMap(\.stringValue) ?? []
                #expect(acceptable.first == "application/json")
                #expect(Set(Self.types).isSubset(of: Set(acceptable)), "\(acceptable)")
                #expect(Set(acceptable).count == acceptable.count)
            }
        }
    }

    @Test func errorAnswersAreTranscodedWhenTheyCanBeAndPassedThroughOtherwise() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let yaml = try await fetch("http://\(gateway.main)/conflict", headers: [("Accept", "application/yaml")])
                #expect(yaml.status == 409)
                #expect(yaml.header("Content-Type") == "application/yaml; charset=utf-8")
                let value = try Registry.linked.decode(yaml.body, contentType: MediaType(parsing: "application/yaml"))
                #expect(value["detail"] == .string("taken"))
                let png = try await fetch("http://\(gateway.main)/conflict", headers: [("Accept", "image/png")])
                #expect(png.status == 409)
                #expect(png.header("Content-Type") == "application/problem+json")
                #expect(png.text.contains(#""detail":"taken""#))
            }
        }
    }
}

/// Which type the client gets when it accepts the upstream's and prefers another (issue #33).
@Suite(.timeLimit(.minutes(2))) struct PreferenceTests {
    @Test func aClientThatPrefersAnotherTypeGetsItAndOneThatPrefersTheUpstreamsGetsItUntouched() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream) { gateway in
                let yaml = try await fetch("http://\(gateway.main)/value",
                                           headers: [("Accept", "application/json;q=0.1, application/yaml")])
                #expect(yaml.status == 200)
                #expect(yaml.header("Content-Type") == "application/yaml; charset=utf-8")
                #expect(try Registry.linked.decode(yaml.body, contentType: MediaType(parsing: "application/yaml"))
                        == TestUpstream.value)
                for accept in ["application/json, application/yaml;q=0.5", "*/*",
                               "application/yaml, application/json"] {
                    let json = try await fetch("http://\(gateway.main)/value", headers: [("Accept", accept)])
                    #expect(json.header("Content-Type")?.hasPrefix("application/json") == true, "\(accept)")
                    #expect(json.header("ETag") == TestUpstream.etag, "\(accept): passed through, still strong")
                }
            }
        }
    }

    @Test func aWhenUnacceptableRoutePassesThroughWhateverTheClientAccepts() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { configuration in
                configuration.routes = [.init(pathPrefix: "/value", transcode: .whenUnacceptable)]
            }) { gateway in
                let json = try await fetch("http://\(gateway.main)/value",
                                           headers: [("Accept", "application/json;q=0.1, application/yaml")])
                #expect(json.status == 200)
                #expect(json.header("ETag") == TestUpstream.etag)
                #expect(json.header("Content-Type")?.hasPrefix("application/json") == true)
            }
        }
    }

    @Test func theRouteOptionReadsFromYAML() throws {
        let yaml = "upstream: http://127.0.0.1:9000\nroutes:\n"
            + "  - prefix: /a\n    transcode: when-unacceptable\n  - prefix: /b\n"
        let configuration = try GatewayConfiguration(yaml: Array(yaml.utf8))
        #expect(configuration.routes.map(\.transcode) == [.whenUnacceptable, .preferred])
        #expect(throws: GatewayConfigurationError.self) {
            try GatewayConfiguration(
                yaml: Array("upstream: http://h\nroutes:\n  - prefix: /a\n    transcode: always\n".utf8))
        }
    }
}

/// What bounds a transcode: its input after content coding, its output, and how many run at once.
@Suite(.timeLimit(.minutes(2))) struct TranscodeBoundsTests {
    @Test func anEncodedAnswerOverTheLimitIs502NamingIt() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            let original = try await fetch(upstream.absoluteString + "/large/200")
            let limit = original.body.count + 16
            try await withGateway(upstream: upstream, configure: { $0.maxTranscodeBytes = limit }) { gateway in
                let answer = try await fetch("http://\(gateway.main)/large/200",
                                             headers: [("Accept", "application/xml")])
                #expect(answer.status == 502, "\(answer.body.count) bytes")
                #expect(problemDetail(answer)?.contains("transcoding limit of \(limit) bytes") == true,
                        "\(answer.text)")
            }
        }
    }

    @Test func aGzipRequestBodyThatDecodesPastTheLimitIs413() async throws {
        let json = Array(("[" + Array(repeating: "0", count: 50_000).joined(separator: ",") + "]").utf8)
        let gzip = Compressor(level: 9).compress(json, coding: .gzip)
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream, configure: { configuration in
                configuration.routes = [.init(pathPrefix: "/echo", requestTypes: [MediaType("application/yaml")],
                                              maxTranscodeBytes: 10_000)]
            }) { gateway in
                #expect(gzip.count < 10_000)
                let answer = try await fetch("http://\(gateway.main)/echo/in", method: .POST,
                                             headers: [("Content-Type", "application/json"),
                                                       ("Content-Encoding", "gzip")],
                                             body: gzip)
                #expect(answer.status == 413, "\(answer.text)")
            }
        }
    }

    @Test func aLargeBodyIsTranscodedOffTheLoopAndOverTheConcurrencyCapIs503() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            let original = try await fetch(upstream.absoluteString + "/large/5000")
            let expected = try ParleyServer(registry: Registry.linked).reply(
                with: Registry.linked.decode(original.body, contentType: MediaType(parsing: "application/json")),
                accepting: "application/msgpack")
            try await withGateway(upstream: upstream, configure: { $0.transcodeOnLoopBytes = 1024 }) { gateway in
                let answer = try await fetch("http://\(gateway.main)/large/5000",
                                             headers: [("Accept", "application/msgpack")])
                #expect(answer.status == 200)
                #expect(answer.body == expected.body)
            }
            try await withGateway(upstream: upstream, configure: { configuration in
                configuration.transcodeOnLoopBytes = 1024
                configuration.maxConcurrentTranscodes = 0
            }) { gateway in
                let busy = try await fetch("http://\(gateway.main)/large/5000",
                                           headers: [("Accept", "application/msgpack")])
                #expect(busy.status == 503)
                #expect(busy.header("Retry-After") == "1")
                let small = try await fetch("http://\(gateway.main)/large/10",
                                            headers: [("Accept", "application/msgpack")])
                #expect(small.status == 200, "a body under transcode_on_loop_bytes needs no slot")
            }
        }
    }
}
