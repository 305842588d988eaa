import CoreMetrics
import Foundation
import HTTPTypes
import ParleyOpenAPI

/// What happened to one request, reported when its response has been sent (or the client went
/// away): the access log, the metrics and the recorder read it.
struct ExchangeSummary: Sendable {
    /// The client's request head.
    var request: HTTPRequest
    /// The client's request body, up to the capture limit.
    var requestBody: [UInt8] = []
    /// Bytes of request body received from the client.
    var bytesIn = 0
    /// The response head the client got.
    var response: HTTPResponse
    /// The response body the client got, up to the capture limit.
    var responseBody: [UInt8] = []
    /// Bytes of response body sent to the client.
    var bytesOut = 0
    /// When the request arrived.
    var started: Date
    /// Time from arrival to the last body byte sent.
    var duration: Duration = .zero
    /// Time from sending upstream to the upstream's response head, when it was asked.
    var upstreamLatency: Duration?
    /// The transcoding, when the body was transcoded: its types for the log and the metrics.
    var transcoded: Transcoding?
    /// Whether the body was cut short (client or upstream went away mid-body).
    var incomplete = false
    /// The contract findings (request's, then response's) and the operation's metric label,
    /// when the exchange was checked against the OpenAPI document.
    var contract: (operation: String, findings: [ContractFinding])?

    /// The request as sent upstream (upstream URL, forwarded fields), once it was sent. Its fields
    /// are made only where they are read (a recording); an HTTP/1.1 upstream's are otherwise
    /// written straight into its head (``UpstreamFields``).
    var upstreamRequest: HTTPRequest?
    /// The request body as sent upstream, up to the capture limit.
    var upstreamRequestBody: [UInt8] = []
    /// Bytes of the request body sent upstream, when the gateway transcoded it (otherwise ``bytesIn``).
    var upstreamRequestByteCount: Int?
    /// The upstream's response head as received, when the upstream answered and its body was read.
    var upstreamResponse: HTTPResponse?
    /// The upstream's response body as received (still content-coded), up to the capture limit.
    var upstreamResponseBody: [UInt8] = []
    /// Bytes of the upstream's response body in all.
    var upstreamResponseByteCount = 0
}

extension ExchangeSummary {
    /// What the access log and the metrics report of a body transcoded between two types: the
    /// log's text of their essences (`application/json -> application/yaml`) and their series of
    /// `parley_gateway_transcodes_total`, made once: a keep-alive connection's answers are
    /// transcoded alike, and the handler keeps its last one for the next.
    struct Transcoding: Sendable {
        let logText: String
        let counter: CoreMetrics.Counter

        /// The transcoding from the type whose essence is `from` to that whose essence is `to`.
        init(from: String, to: String, metrics: GatewayMetrics) {
            self.logText = "\(from) -> \(to)"
            self.counter = metrics.transcodeCounter(from: from, to: to)
        }
    }
}

/// Counts the bytes of a body as it streams and keeps its first `limit` bytes. A value of the
/// exchange, which lives on its connection's event loop: no lock.
struct BodyTap {
    private(set) var count = 0
    private(set) var captured: [UInt8] = []
    let limit: Int

    init(limit: Int) { self.limit = limit }

    mutating func take(_ bytes: some Collection<UInt8>) {
        count += bytes.count
        let room = limit - captured.count
        if room > 0 { captured.append(contentsOf: bytes.prefix(room)) }
    }
}
