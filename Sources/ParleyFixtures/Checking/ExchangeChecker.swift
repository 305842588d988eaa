import Parley

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
            result.findings.append(Finding(note.kind, note.message, severity: options.severities[note.kind] ?? note.severity))
        }
        if exchange.isMissingItsBody {
            result.findings.append(Finding(.noBody, "no body was recorded; not checked", severity: options.severity(of: .noBody)))
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
        return result
    }
}
