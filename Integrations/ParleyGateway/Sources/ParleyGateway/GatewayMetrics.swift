import CoreMetrics
import HTTPTypes
import Metrics
import NIOConcurrencyHelpers
import Prometheus

/// The gateway's metrics, through swift-metrics into its own Prometheus registry (so several
/// gateways in one process, as in the tests, never share or bootstrap a global system):
///
/// | name | kind | labels |
/// |---|---|---|
/// | `parley_gateway_requests_total` | counter | `status` |
/// | `parley_gateway_transcodes_total` | counter | `from`, `to` (a type the registry names, or `other`) |
/// | `parley_gateway_upstream_latency_seconds` | histogram | |
/// | `parley_gateway_bytes_in_total` | counter | |
/// | `parley_gateway_bytes_out_total` | counter | |
/// | `parley_gateway_log_lines_dropped_total` | counter | |
/// | `parley_gateway_recording_failures_total` | counter | |
/// | `parley_gateway_contract_violations_total` | counter | `operation`, `kind` |
///
/// A contract violation's `operation` is its operation's `operationId`, else its path template,
/// or `none` when the request matched no operation: the document bounds the label values.
struct GatewayMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let bytesIn: CoreMetrics.Counter
    private let bytesOut: CoreMetrics.Counter
    private let upstreamLatency: CoreMetrics.Timer
    private let recordingFailures: CoreMetrics.Counter
    /// The handles of the labelled counters made so far (the factory finds a handle by hashing
    /// its name and labels under a lock; a status is looked up here by its code).
    private let handles = CounterHandles()
    /// The log writers whose dropped lines `parley_gateway_log_lines_dropped_total` counts.
    private let logWriters: [LogLineWriter]

    /// The media types (essences) a label may name; others are `other`, so an upstream cannot
    /// make a series per type it invents.
    private let knownTypes: Set<String>

    init(logWriters: [LogLineWriter] = [], knownTypes: Set<String> = []) {
        self.logWriters = logWriters
        self.knownTypes = knownTypes
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [.milliseconds(1), .milliseconds(5), .milliseconds(10),
                                                   .milliseconds(25), .milliseconds(50), .milliseconds(100),
                                                   .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2),
                                                   .seconds(5), .seconds(10)]
        self.factory = factory
        bytesIn = CoreMetrics.Counter(label: "parley_gateway_bytes_in_total", factory: factory)
        bytesOut = CoreMetrics.Counter(label: "parley_gateway_bytes_out_total", factory: factory)
        recordingFailures = CoreMetrics.Counter(label: "parley_gateway_recording_failures_total", factory: factory)
        upstreamLatency = CoreMetrics.Timer(label: "parley_gateway_upstream_latency_seconds",
                                            preferredDisplayUnit: .seconds, factory: factory)
    }

    /// Counts one finished exchange.
    func record(_ summary: ExchangeSummary) {
        let code = summary.response.status.code
        handles.counter(status: code) {
            CoreMetrics.Counter(label: "parley_gateway_requests_total", dimensions: [("status", String(code))],
                                factory: factory)
        }.increment()
        summary.transcoded?.counter.increment()
        if let latency = summary.upstreamLatency { upstreamLatency.recordNanoseconds(latency.nanoseconds) }
        bytesIn.increment(by: summary.bytesIn)
        bytesOut.increment(by: summary.bytesOut)
    }

    /// The `parley_gateway_transcodes_total` series of a body transcoded from the type `from` to
    /// `to` (essences), each label the type or `other` (see ``label(_:)``). Found once for a
    /// connection's transcodings alike (``ExchangeSummary/Transcoding``), not for each exchange.
    func transcodeCounter(from: String, to: String) -> CoreMetrics.Counter {
        let (from, to) = (label(from), label(to))
        return handles.counter(transcoding: TypePair(from: from, to: to)) {
            CoreMetrics.Counter(label: "parley_gateway_transcodes_total", dimensions: [("from", from), ("to", to)],
                                factory: factory)
        }
    }

    /// `type` when the registry names it, else `other`.
    func label(_ type: String) -> String { knownTypes.contains(type) ? type : "other" }

    /// Counts one contract violation of `operation` (a label the document bounds).
    func contractViolation(operation: String, kind: String) {
        CoreMetrics.Counter(label: "parley_gateway_contract_violations_total",
                            dimensions: [("operation", operation), ("kind", kind)], factory: factory).increment()
    }

    /// Counts an exchange the recorder failed to write.
    func recordingFailed() { recordingFailures.increment() }

    /// The Prometheus text exposition of every metric.
    func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        // Counted by the writers themselves, read when the metrics are asked for.
        let dropped = logWriters.reduce(0) { $0 + $1.droppedLines }
        buffer += Array("""
            # TYPE parley_gateway_log_lines_dropped_total counter
            parley_gateway_log_lines_dropped_total \(dropped)

            """.utf8)
        return buffer
    }
}

/// The labels of a `parley_gateway_transcodes_total` series.
private struct TypePair: Hashable {
    var from: String
    var to: String
}

/// Counter handles by their labels, made once each (the label values are bounded: statuses,
/// and the types the registry names).
private final class CounterHandles: Sendable {
    private struct Handles {
        var statuses: [Int: CoreMetrics.Counter] = [:]
        var transcodings: [TypePair: CoreMetrics.Counter] = [:]
    }
    private let handles = NIOLockedValueBox(Handles())

    func counter(status: Int, make: () -> CoreMetrics.Counter) -> CoreMetrics.Counter {
        handles.withLockedValue { handles in
            if let counter = handles.statuses[status] { return counter }
            let counter = make()
            handles.statuses[status] = counter
            return counter
        }
    }

    func counter(transcoding pair: TypePair, make: () -> CoreMetrics.Counter) -> CoreMetrics.Counter {
        handles.withLockedValue { handles in
            if let counter = handles.transcodings[pair] { return counter }
            let counter = make()
            handles.transcodings[pair] = counter
            return counter
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product + attoseconds / 1_000_000_000
    }

    /// The duration in milliseconds, for logs.
    var milliseconds: Double { Double(nanoseconds) / 1e6 }
}
