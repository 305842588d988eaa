extension GatewayConfiguration {
    /// How the gateway speaks to an upstream (`upstream_protocol:`).
    public enum UpstreamProtocol: String, Sendable, Equatable, CaseIterable {
        /// HTTP/1.1 over pooled keep-alive connections, one exchange at a time on each.
        case http1
        /// HTTP/2 over cleartext by prior knowledge (RFC 9113 §3.3): every exchange is a stream of a
        /// pooled connection, many at once on one.
        case h2c
    }
}
