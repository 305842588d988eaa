import Foundation

/// Where an upstream URL sends requests, read from it once when the gateway starts (reading a
/// `URL`'s parts parses it again each time): what every forwarded request's URL is built from.
struct UpstreamTarget: Sendable {
    let scheme: String
    /// The request's authority: the host (bracketed when it is an IPv6 address) and the port when given.
    let authority: String
    /// The URL's path without its trailing slashes, put before the client's path.
    let pathPrefix: String
    /// The address the upstream pool connects to, and how it is spoken to.
    let key: UpstreamKey

    /// The target of `url`, spoken to in `upstreamProtocol`, or why there is none (it has no scheme
    /// or host).
    static func of(
        _ url: URL, speaking upstreamProtocol: GatewayConfiguration.UpstreamProtocol
    ) -> Result<UpstreamTarget, UpstreamFailure> {
        guard let scheme = url.scheme, let host = url.host else {
            return .failure(.unreachable("'\(url)' has no host"))
        }
        var prefix = url.path
        while prefix.hasSuffix("/") { prefix.removeLast() }
        let bracketed = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        let port = url.port
        return .success(UpstreamTarget(scheme: scheme, authority: port.map { "\(bracketed):\($0)" } ?? host,
                                       pathPrefix: prefix,
                                       key: UpstreamKey(host: host, port: port ?? (scheme == "https" ? 443 : 80),
                                                        upstreamProtocol: upstreamProtocol)))
    }
}
