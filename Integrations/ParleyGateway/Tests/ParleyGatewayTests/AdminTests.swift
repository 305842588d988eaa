import Foundation
import NIOHTTP1
import Parley
import ParleyGateway
import Testing

/// The admin port: health, Prometheus metrics; the main port reserves no paths.
@Suite(.timeLimit(.minutes(2))) struct AdminTests {
    @Test func healthAndMetricsCountRequestsTranscodesLatencyAndBytes() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            try await withGateway(upstream: upstream,
                                  configure: { $0.admin = HostAndPort(host: "127.0.0.1", port: 0) }) { gateway in
                let admin = try #require(gateway.admin)
                #expect(try await fetch("http://\(admin)/health").text == "ok\n")
                _ = try await fetch("http://\(gateway.main)/value", headers: [("Accept", "application/json")])
                _ = try await fetch("http://\(gateway.main)/value", headers: [("Accept", "application/yaml")])
                _ = try await fetch("http://\(gateway.main)/value", headers: [("Accept", "application/yaml")])
                _ = try await fetch("http://\(gateway.main)/value", headers: [("Accept", "image/png")])
                _ = try await fetch("http://\(gateway.main)/echo/x", method: .POST,
                                    headers: [("Content-Type", "text/plain")], body: Array(repeating: 65, count: 1000))
                let metrics = try await fetch("http://\(admin)/metrics")
                #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
                let text = metrics.text
                #expect(text.contains(#"parley_gateway_requests_total{status="200"} 4"#), "\(text)")
                #expect(text.contains(#"parley_gateway_requests_total{status="406"} 1"#))
                #expect(text.contains(
                    #"parley_gateway_transcodes_total{from="application/json",to="application/yaml"} 2"#))
                #expect(text.contains("parley_gateway_upstream_latency_seconds_count 5"))
                #expect(text.contains("parley_gateway_bytes_in_total 1000"))
                #expect(text.contains("parley_gateway_bytes_out_total"))
                #expect(try await fetch("http://\(admin)/other").status == 404)
                // The main port forwards /health and /metrics like any other path.
                let forwarded = try await fetch("http://\(gateway.main)/metrics")
                #expect(forwarded.status == 404)
                #expect(forwarded.header("Via") == "1.1 parley-gateway")
            }
        }
    }
}
