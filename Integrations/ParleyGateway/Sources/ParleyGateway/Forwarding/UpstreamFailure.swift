/// Why the upstream gave no usable answer.
enum UpstreamFailure: Error, Sendable {
    /// No head within the timeout (the gateway answers 504).
    case timedOut(Duration)
    /// Refused, reset, unresolvable, or a malformed head (the gateway answers 502).
    case unreachable(String)
    /// A response body the gateway had to read and could not use: over the transcoding limit,
    /// cut short, or not what its `Content-Type` says (502).
    case unusableBody(String)
    /// A response body the gateway had to read went silent for longer than the upstream timeout (504).
    case stalled
}

/// A request body took longer than the upload timeout in all (408).
struct UploadTimedOut: Error, Sendable, CustomStringConvertible {
    let timeout: Duration

    var description: String { "the request body took longer than the gateway's upload timeout of \(timeout)" }
}

/// The gateway is transcoding as many large bodies as it may at once (503).
struct GatewayBusy: Error, Sendable, CustomStringConvertible {
    let limit: Int

    var description: String {
        "the gateway is transcoding \(limit) large bodies already (max_concurrent_transcodes); try again"
    }
}

/// The upstream answered `101 Switching Protocols` to a request that asked for no upgrade (the
/// gateway forwards no `Upgrade` field): what follows is not HTTP, so nothing of it is passed on (502).
struct UnsolicitedSwitch: Error, Sendable, CustomStringConvertible {
    var description: String { "the upstream switched protocols (101) though the request asked for no upgrade" }
}

/// The upstream's `GOAWAY` refused an h2c stream before processing it: the request may go again,
/// whatever its method, on a new connection.
struct UpstreamStreamRefused: Error, Sendable, CustomStringConvertible {
    var description: String { "the upstream refused the stream unprocessed (GOAWAY)" }
}
