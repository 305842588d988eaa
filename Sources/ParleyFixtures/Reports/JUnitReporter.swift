import Parley
import ParleyHTTP

/// JUnit XML for CI systems: a `<testsuite>` per recording, a `<testcase>` per exchange, a
/// `<failure>` for each failing one (warnings too in strict mode), `<error>` for unreadable files.
struct JUnitReporter: CheckReporter {
    let strict: Bool
    let write: (String) -> Void
    private var started = false

    init(strict: Bool, write: @escaping (String) -> Void) {
        self.strict = strict
        self.write = write
    }

    mutating func record(_ check: RecordingCheck) {
        if !started {
            write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"parley check\">")
            started = true
        }
        if check.isSkipped { return }
        if let error = check.readError, check.exchanges.isEmpty {
            write("  <testsuite name=\(attr(error.path)) tests=\"1\" failures=\"0\" errors=\"1\">")
            write("    <testcase classname=\(attr(error.path)) name=\"read\">")
            write("      <error type=\(attr(error.reason.rawValue)) message=\(attr(error.message))/>")
            write("    </testcase>\n  </testsuite>")
            return
        }
        let failures = check.exchanges.filter { $0.fails(strict: strict) }.count
        let errors = check.readError == nil ? 0 : 1
        write("  <testsuite name=\(attr(check.path)) tests=\"\(check.exchanges.count)\" failures=\"\(failures)\" " +
              "errors=\"\(errors)\">")
        for result in check.exchanges {
            let name = "#\(result.index) \(result.method) \(result.url)".trimmingSpacesAndTabs()
            write("    <testcase classname=\(attr(check.path)) name=\(attr(name))>")
            if result.fails(strict: strict) {
                let failing = result.findings.filter { $0.severity == .error || (strict && $0.severity == .warning) }
                let message = failing.map { "\($0.kind): \($0.message)\($0.pathsText)" }.joined(separator: "; ")
                write("      <failure type=\(attr(failing.first?.kind.rawValue ?? "failure")) " +
                      "message=\(attr(message))>\(text(message))</failure>")
            }
            let others = result.findings.filter { !($0.severity == .error || (strict && $0.severity == .warning)) }
            if !others.isEmpty {
                write("      <system-out>\(text(others.map(\.description).joined(separator: "\n")))</system-out>")
            }
            write("    </testcase>")
        }
        if let error = check.readError {
            write("    <testcase classname=\(attr(check.path)) name=\"snapshot\"><error " +
                  "type=\(attr(error.reason.rawValue)) message=\(attr(error.message))/></testcase>")
        }
        write("  </testsuite>")
    }

    mutating func finish(_ summary: CheckSummary) {
        if !started { write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"parley check\">") }
        write("</testsuites>")
    }

    private func attr(_ value: String) -> String {
        "\"" + XMLEscaping.escapedDroppingUnrepresentable(value, for: .attribute) + "\""
    }

    private func text(_ value: String) -> String { XMLEscaping.escapedDroppingUnrepresentable(value, for: .text) }
}
