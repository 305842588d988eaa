import Foundation
import Testing

/// `parley check --report html` end to end: the page goes to the file, the exit code is the
/// check's, and `--help` and usage errors name the format.
@Suite struct HTMLReportCommandTests {
    func check(_ arguments: [String]) throws -> ParleyProcess.Result {
        try ParleyProcess.run(["check"] + arguments, directory: CheckCommandTests.root)
    }

    @Test func htmlReportGoesToAFileWithTheCommandLineAndCounts() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("parley-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try check(["Fixtures/recorded", "Fixtures/failing", "--report", "html", "--output", output.path])
        #expect(result.status == 2, "\(result.stderr)")  // Fixtures/failing holds a file that cannot be read
        #expect(result.stdout.isEmpty)
        let page = try String(contentsOf: output, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.hasSuffix("</html>\n"))
        #expect(page.contains("<code>parley check Fixtures/recorded Fixtures/failing --report html --output " +
                              "\(output.path)</code>"))
        #expect(page.contains("<td data-outcome=\"ok\">25</td>") && page.contains("<td data-outcome=\"error\">5</td>"))
        #expect(page.contains("<span data-count=\"exchanges\">31</span>"))
        #expect(page.contains("Fixtures/failing/not-a-recording.har</span>: invalid JSON"))
        #expect(page.components(separatedBy: "<tbody data-row=").count - 1 == 31)
        // Images of the clean set are inlined; nothing is fetched from anywhere.
        #expect(page.contains("src=\"data:image/png;base64,") && page.contains("src=\"data:image/gif;base64,"))
        #expect(!page.contains("src=\"http") && !page.contains("href=\"http"))
    }

    @Test func helpAndUsageErrorsNameHTML() throws {
        let help = try ParleyProcess.run(["check", "--help"])
        #expect(help.stdout.contains("parley check recordings/ --report html --output report.html"))
        #expect(help.stdout.contains("junit or html"))
        let wrong = try check(["Fixtures/recorded", "--report", "pdf"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("--report must be text, json, junit or html, not 'pdf'"))
    }
}
