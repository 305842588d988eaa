import Logging
import ParleyFixtures

/// Everything that watches finished exchanges: the access log (one structured line per
/// request, through swift-log), the metrics, and the recorder when `--record` is on.
struct ExchangeObserver: Sendable {
    let logger: Logger
    let metrics: GatewayMetrics
    /// Writes the upstream exchanges as HAR files, when recording.
    let recorder: HARRecorder?

    /// How many bytes of each body are kept for the recorder (0 when not recording).
    var captureLimit: Int { recorder?.options.maxRecordedBodyBytes ?? 0 }

    func finished(_ summary: ExchangeSummary) {
        metrics.record(summary)
        record(summary)
        guard logger.logLevel <= .info else { return }
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

    /// Records what the upstream was asked and answered: the exchange `parley check` checks and
    /// `--replay` answers from. Exchanges the upstream never answered (502, 504), or whose body
    /// the gateway did not read (406), are not recorded.
    private func record(_ summary: ExchangeSummary) {
        guard let recorder, let request = summary.upstreamRequest, let response = summary.upstreamResponse else { return }
        let exchange = CapturedExchange(request: request, requestBody: summary.upstreamRequestBody,
                                        requestBodyByteCount: summary.upstreamRequestByteCount ?? summary.bytesIn, response: response,
                                        responseBody: summary.upstreamResponseBody,
                                        responseBodyByteCount: summary.upstreamResponseByteCount,
                                        startedAt: summary.started, totalMilliseconds: summary.duration.milliseconds)
        do { try recorder.record(exchange) } catch {
            logger.warning("recording failed", metadata: ["error": "\(error)"])
        }
    }

    private static func rounded(_ milliseconds: Double) -> Double { (milliseconds * 1000).rounded() / 1000 }
}
