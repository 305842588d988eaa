import ParleyHTTP

/// JSON Lines: `{"type":"exchange",…}` per exchange, `{"type":"file",…}` per unreadable file,
/// and `{"type":"summary",…}` last.
struct JSONLinesReporter: CheckReporter {
    let write: (String) -> Void

    mutating func record(_ check: RecordingCheck) {
        if let error = check.readError {
            write("{\"type\":\"file\",\"file\":\(q(error.path)),"
                  + "\"outcome\":\(q(check.isSkipped ? "skipped" : "error")),"
                  + "\"reason\":\(q(error.reason.rawValue)),\"message\":\(q(error.message))}")
        }
        for result in check.exchanges {
            let findings = result.findings.map {
                "{\"kind\":\(q($0.kind.rawValue)),\"severity\":\(q($0.severity.description)),"
                    + "\"message\":\(q($0.message))"
                    + ($0.instancePath.map { ",\"instance_path\":\(q($0))" } ?? "")
                    + ($0.schemaPath.map { ",\"schema_path\":\(q($0))" } ?? "") + "}"
            }
            write("{\"type\":\"exchange\",\"file\":\(q(result.path)),\"kind\":\(q(check.kind?.rawValue ?? "")),"
                  + "\"index\":\(result.index),\"method\":\(q(result.method)),\"url\":\(q(result.url)),"
                  + "\"status\":\(result.status),\"content_type\":\(result.contentType.map(q) ?? "null"),"
                  + "\"format\":\(result.format.map(q) ?? "null"),\"body_bytes\":\(result.bodyBytes),"
                  + "\"outcome\":\(q(result.outcome)),\"findings\":[\(findings.joined(separator: ","))]}")
        }
    }

    mutating func finish(_ summary: CheckSummary) {
        let counts = summary.findingCounts.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\(q($0.key.rawValue)):\($0.value)" }.joined(separator: ",")
        write("{\"type\":\"summary\",\"recordings\":\(summary.recordings),\"exchanges\":\(summary.exchanges),"
              + "\"ok\":\(summary.passed),\"warnings\":\(summary.warnings),\"errors\":\(summary.errors),"
              + "\"unreadable_files\":\(summary.unreadableFiles),\"skipped_files\":\(summary.skippedFiles),"
              + "\"bytes\":\(summary.bytes),\"findings\":{\(counts)}}")
    }

    private func q(_ text: String) -> String { TypedJSONText.quote(text) }
}
