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
            result.findings.append(Finding(note.kind, note.message, severity: options.severities[note.kind] ?? note.severity))
        }
        if options.keepsDetails {
            result.detail = ExchangeDetail(requestFields: exchange.request.headers, responseFields: response.headers,
                                           reason: response.reason, body: Array((response.body ?? []).prefix(options.maxDetailBodyBytes)),
                                           bodyByteCount: response.body?.count ?? 0)
        }
        if response.headers.exceedsMaxCount {
            result.findings.append(Finding(.limitExceeded, response.headers.overMaxCountMessage + "; not checked",
                                           severity: options.severity(of: .limitExceeded)))
            return result
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
        if let contractCheck = options.contractCheck {
            for var finding in contractCheck(exchange, outcome.body, result.value) {
                finding.severity = options.severity(of: finding.kind)
                result.findings.append(finding)
            }
        }
        if options.keepsDetails {
            result.detail?.body = Array(outcome.body.prefix(options.maxDetailBodyBytes))
            result.detail?.bodyByteCount = outcome.body.count
            result.detail?.value = result.value.map { Self.preview($0, maxBytes: options.maxDetailBodyBytes) }
            if outcome.findings.contains(where: { $0.kind == .mislabelledBody }),
               let label = response.headers["Content-Type"].flatMap(MediaType.init) {
                result.detail?.sniffedType = options.registry.mislabelling(of: outcome.body, labelledAs: label)?.mediaType
            }
        }
        return result
    }

    /// A decoded text or byte string cut to `maxBytes`, so a report's detail keeps a preview of
    /// a large body rather than all of it; other values are kept as they are.
    static func preview(_ value: Value, maxBytes: Int) -> Value {
        switch value {
        case .string(let text) where text.utf8.count > maxBytes:
            return .string(String(decoding: text.utf8.prefix(maxBytes), as: UTF8.self))
        case .bytes(let bytes) where bytes.count > maxBytes:
            return .bytes(Array(bytes.prefix(maxBytes)))
        default:
            return value
        }
    }
}
