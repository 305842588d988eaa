import Logging

/// Everything that watches finished exchanges: the access log (one structured line per
/// request, through swift-log), the metrics, and the recorder when `--record` is on.
struct ExchangeObserver: Sendable {
    let logger: Logger
    let metrics: GatewayMetrics
    /// How many bytes of each body are kept for the recorder (0 when not recording).
    let captureLimit: Int

    func finished(_ summary: ExchangeSummary) {
        metrics.record(summary)
        var metadata: Logger.Metadata = [
            "method": "\(summary.request.method.rawValue)",
            "path": "\(summary.request.path ?? "")",
            "status": "\(summary.response.status.code)",
            "duration_ms": "\(Self.rounded(summary.duration.milliseconds))",
            "bytes_in": "\(summary.bytesIn)",
            "bytes_out": "\(summary.bytesOut)",
        ]
        if let latency = summary.upstreamLatency { metadata["upstream_ms"] = "\(Self.rounded(latency.milliseconds))" }
        if let transcoded = summary.transcoded { metadata["transcoded"] = "\(transcoded.from) -> \(transcoded.to)" }
        if summary.incomplete { metadata["incomplete"] = "true" }
        logger.info("request", metadata: metadata)
    }

    private static func rounded(_ milliseconds: Double) -> Double { (milliseconds * 1000).rounded() / 1000 }
}
