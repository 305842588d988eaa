import Parley
import ParleyHTTP

/// Checks one recorded response by running it through the `ResponsePipeline` the client runs
/// (see ``CheckOptions/pipeline(for:)``), and reports the pipeline's findings with the
/// severities the options give them.
public struct ExchangeChecker: Sendable {
    /// The options in force.
    public var options: CheckOptions

    /// Creates a checker.
    public init(options: CheckOptions) {
        self.options = options
    }

    /// Checks `exchange` from the recording at `path` of kind `kind`.
    public func check(_ exchange: RecordedExchange, path: String, kind: RecordingKind) -> ExchangeResult {
        let response = exchange.response
        var result = ExchangeResult(path: path, index: exchange.index, method: exchange.request.method,
                                    url: exchange.request.url, status: response.status,
                                    contentType: response.headers["Content-Type"], format: nil,
                                    bodyBytes: response.body?.count ?? 0, findings: [], value: nil)
        for note in response.readingNotes {
            let severity = options.severities[note.kind] ?? note.severity
            result.findings.append(Finding(note.kind, note.message, severity: severity))
        }
        if options.keepsDetails {
            let body = Array((response.body ?? []).prefix(options.maxDetailBodyBytes))
            result.detail = ExchangeDetail(requestFields: exchange.request.headers, responseFields: response.headers,
                                           reason: response.reason, body: body,
                                           bodyByteCount: response.body?.count ?? 0)
        }
        if response.headers.exceedsMaxCount {
            result.findings.append(Finding(.limitExceeded, response.headers.overMaxCountMessage + "; not checked",
                                           severity: options.severity(of: .limitExceeded)))
            return result
        }
        if exchange.isMissingItsBody {
            result.findings.append(Finding(.noBody, "no body was recorded; not checked",
                                           severity: options.severity(of: .noBody)))
            return result
        }
        let outcome = options.pipeline(for: kind).run(response.httpResponse, body: response.body ?? [],
                                                      request: exchange.request.httpRequest)
        for finding in outcome.findings {
            result.findings.append(Finding(finding.kind, finding.message, severity: options.severity(of: finding.kind)))
        }
        result.format = outcome.formatName
        // An unacceptable status still has its body decoded (kept for snapshots).
        result.value = outcome.output ?? outcome.error?.decodedBody
        if let contractCheck = options.contractCheck {
            for var finding in contractCheck(exchange, outcome.body, result.value) {
                finding.severity = options.severity(of: finding.kind)
                result.findings.append(finding)
            }
        }
        if options.keepsDetails {
            result.detail?.body = Array(outcome.body.prefix(options.maxDetailBodyBytes))
            result.detail?.bodyByteCount = outcome.body.count
            // Only the preview is kept: the whole value is released once the exchange is checked.
            result.detail?.preview = result.value.map {
                ValuePreview($0, limits: options.previewLimits, isTable: outcome.formatName == "csv")
            }
            if outcome.findings.contains(where: { $0.kind == .mislabelledBody }),
               let label = response.headers["Content-Type"].flatMap(MediaType.init) {
                let mislabelling = options.registry.mislabelling(of: outcome.body, labelledAs: label)
                result.detail?.sniffedType = mislabelling?.mediaType
            }
        }
        return result
    }
}
