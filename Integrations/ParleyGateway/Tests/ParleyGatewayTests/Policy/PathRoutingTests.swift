import Foundation
import Parley
import ParleyGateway
import Testing

/// Routes match, and requests are forwarded with, the normalised path; what cannot be
/// normalised safely is 400 (review finding 7).
@Suite(.timeLimit(.minutes(2))) struct PathRoutingTests {
    /// The path the upstream's echo saw for a raw `GET target`, or the status when it was not 200.
    static func forwardedPath(_ target: String,
                              port: Int) async throws -> (status: Int, path: String?, detail: String?) {
        let connection = try await RawConnection.open(port: port)
        try await connection.send("GET \(target) HTTP/1.1\r\nHost: gateway\r\nAccept: application/json\r\n\r\n")
        let answer = try #require(await connection.responses(1, within: .seconds(10)).first)
        await connection.close()
        let value = try Registry.linked.decode(answer.body, contentType: MediaType(parsing: "application/json"))
        return (answer.status, value["path"]?.stringValue, value["detail"]?.stringValue)
    }

    @Test func encodedDuplicatedAndDotSegmentsReachTheRouteTheyNameWithTheNormalisedPath() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            let routeUpstream = try #require(URL(string: upstream.absoluteString + "/echo/v1"))
            let route = GatewayConfiguration.Route(pathPrefix: "/api", upstream: routeUpstream)
            try await withGateway(upstream: upstream, configure: { $0.routes = [route] }) { gateway in
                for target in ["/api/users", "/%61pi/users", "//api/users", "/./api/users", "/api/x/../users",
                               "/api/x/%2e%2e/users"] {
                    let answer = try await Self.forwardedPath(target, port: gateway.main.port)
                    #expect(answer.status == 200, "\(target)")
                    #expect(answer.path == "/echo/v1/api/users", "\(target)")
                }
                // Outside the route, the normalised path goes to the gateway's upstream.
                let other = try await Self.forwardedPath("/echo/%7Eada/./x//y?q=%2F", port: gateway.main.port)
                #expect(other.path == "/echo/~ada/x/y?q=%2F")
            }
        }
    }

    @Test func whatWouldEscapeTheRouteBaseOrCannotBeNormalisedSafelyIs400() async throws {
        try await withUpstream(TestUpstream.router()) { upstream in
            let routeUpstream = try #require(URL(string: upstream.absoluteString + "/echo/v1"))
            let route = GatewayConfiguration.Route(pathPrefix: "/api", upstream: routeUpstream)
            try await withGateway(upstream: upstream, configure: { $0.routes = [route] }) { gateway in
                for target in ["/api/../../value", "/api/%2e%2e/%2e%2e/value", "/api/..%2f..%2fvalue", "/api/%5c",
                               "/api/%zz"] {
                    let answer = try await Self.forwardedPath(target, port: gateway.main.port)
                    #expect(answer.status == 400, "\(target)")
                    #expect(answer.path == nil)
                    #expect(answer.detail?.isEmpty == false)
                }
                // The connection after a refusal is closed; a new one is served.
                #expect(try await Self.forwardedPath("/api/ok", port: gateway.main.port).path == "/echo/v1/api/ok")
            }
        }
    }
}
