import Foundation
import HTTPTypes
import Logging
import Parley
import ParleyFixtures
import ParleyOpenAPI

/// Everything that watches finished exchanges: the access log (one structured line per
/// request, through swift-log; the executable's handler never blocks, see ``LogLineWriter``),
/// the metrics, and the recorder when `--record` is on.
struct ExchangeObserver: Sendable {
    /// Warnings (a recording that failed).
    let logger: Logger
    /// The access log.
    let accessLogger: Logger
    /// The access log's handler when it is the gateway's own, with no metadata of its own: lines are
    /// then made straight into its writer. Found once here rather than cast on every request.
    private let accessLineHandler: BufferedLogHandler?
    let metrics: GatewayMetrics
    /// Writes the upstream exchanges as HAR files, when recording.
    let recorder: HARRecorder?
    /// Secret query parameters, redacted in access-log lines as in recordings.
    var urls = URLRedaction(parameters: [])
    /// What makes an exchange safe to record (failing closed), when recording.
    var recordingFilter: RecordingFilter?
    /// Whether writes are failing: one error log per run of failures.
    let recordingHealth = RecordingHealth()

    init(logger: Logger, accessLogger: Logger, metrics: GatewayMetrics, recorder: HARRecorder?) {
        self.logger = logger
        self.accessLogger = accessLogger
        self.metrics = metrics
        self.recorder = recorder
        let handler = accessLogger.handler as? BufferedLogHandler
        accessLineHandler = handler?.metadata.isEmpty == true ? handler : nil
    }

    /// How many bytes of each body are kept for the recorder (0 when not recording).
    var captureLimit: Int { recorder?.options.maxRecordedBodyBytes ?? 0 }

    func finished(_ summary: ExchangeSummary) {
        var line = LogLine()
        finished(summary, line: &line)
    }

    /// ``finished(_:)`` making the access-log line (with the gateway's handler) in `line`, which a
    /// connection keeps for its next exchange: its storage is reused, and no string is made.
    func finished(_ summary: ExchangeSummary, line: inout LogLine) {
        metrics.record(summary)
        if let contract = summary.contract, !contract.findings.isEmpty { reportContract(contract, of: summary) }
        record(summary)
        guard accessLogger.logLevel <= .info else { return }
        if let handler = accessLineHandler {
            // The line the handler would make of the metadata below, made without the dictionary.
            line.make(date: Date(), level: .info, label: handler.label, message: "request") {
                accessFields(of: summary, $0)
            }
            handler.writer.submit(utf8: line.bytes)
            return
        }
        // Room for every key below: the dictionary never grows.
        var metadata = Logger.Metadata(minimumCapacity: 9)
        accessFields(of: summary) { metadata[$0] = .string($1.text) }
        accessLogger.info("request", metadata: metadata)
    }

    /// Hands `field` the access-log line's metadata of an exchange, in key order.
    private func accessFields(of summary: ExchangeSummary, _ field: (_ key: String, _ value: LogLine.Value) -> Void) {
        field("bytes_in", .integer(summary.bytesIn))
        field("bytes_out", .integer(summary.bytesOut))
        field("duration_ms", .milliseconds(summary.duration))
        if summary.incomplete { field("incomplete", .text("true")) }
        field("method", .text(summary.request.method.rawValue))
        field("path", .text(urls.apply(to: summary.request.path ?? "")))
        field("status", .integer(summary.response.status.code))
        if let transcoded = summary.transcoded { field("transcoded", .text(transcoded.logText)) }
        if let latency = summary.upstreamLatency { field("upstream_ms", .milliseconds(latency)) }
    }

    /// Counts an exchange's contract violations and logs its findings (a warning when one is a
    /// violation, a notice for `contract-unchecked` warnings alone).
    private func reportContract(_ contract: (operation: String, findings: [ContractFinding]),
                                of summary: ExchangeSummary) {
        for finding in contract.findings where finding.isViolation {
            metrics.contractViolation(operation: contract.operation, kind: finding.kind.rawValue)
        }
        let violates = contract.findings.contains(where: \.isViolation)
        let metadata: Logger.Metadata = [
            "method": "\(summary.request.method.rawValue)",
            "path": "\(urls.apply(to: summary.request.path ?? ""))",
            "status": "\(summary.response.status.code)",
            "operation": "\(contract.operation)",
            "findings": .array(contract.findings.map { .string($0.description) }),
        ]
        logger.log(level: violates ? .warning : .notice,
                   violates ? "contract violation" : "contract not checked", metadata: metadata)
    }

    /// Records what the upstream was asked and answered: the exchange `parley check` checks and
    /// `--replay` answers from. Exchanges the upstream never answered (502, 504), or whose body
    /// the gateway did not read (406), are not recorded.
    private func record(_ summary: ExchangeSummary) {
        guard let recorder, let request = summary.upstreamRequest, let response = summary.upstreamResponse else {
            return
        }
        var exchange = CapturedExchange(request: request, requestBody: summary.upstreamRequestBody,
                                        requestBodyByteCount: summary.upstreamRequestByteCount ?? summary.bytesIn,
                                        response: response,
                                        responseBody: summary.upstreamResponseBody,
                                        responseBodyByteCount: summary.upstreamResponseByteCount,
                                        startedAt: summary.started, totalMilliseconds: summary.duration.milliseconds)
        if let contract = summary.contract, !contract.findings.isEmpty {
            // Offending values are left out where bodies are redacted: they may be what is redacted.
            let withValues = !(recordingFilter?.redactsBodies ?? false)
            exchange.annotations["contract"] = .array(contract.findings.map { finding in
                guard !withValues, finding.value != nil else { return finding.problemMember }
                return ContractFinding(finding.kind, finding.message, instancePath: finding.instancePath,
                                       schemaPath: finding.schemaPath).problemMember
            })
        }
        if let recordingFilter { exchange = recordingFilter.apply(to: exchange) }
        do {
            do { try recorder.record(exchange) } catch {
                // A folder removed while running is made again; other failures stand.
                guard !FileManager.default.fileExists(atPath: recorder.directory) else { throw error }
                try? FileManager.default.createDirectory(atPath: recorder.directory, withIntermediateDirectories: true)
                try recorder.record(exchange)
            }
            if recordingHealth.succeeded() {
                logger.notice("recording resumed", metadata: ["directory": "\(recorder.directory)"])
            }
        } catch {
            metrics.recordingFailed()
            if recordingHealth.failed() {
                logger.error("recording failed; no exchange is recorded until a write succeeds",
                             metadata: ["error": "\(error)", "metric": "parley_gateway_recording_failures_total"])
            }
        }
    }
}
