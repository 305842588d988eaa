import Foundation
import ParleyTestKit
import Testing

/// The suite's totals per dialect and part against the conformance targets: all required cases,
/// at least 95% of format cases (format assertion on), at least 90% of the other optional cases.
@Suite struct SuiteSummaryTests {
    @Test func meetsTheConformanceTargets() throws {
        guard JSONSchemaTestSuiteTests.directory != nil else {
            print(Corpora.missingMessage("json-schema-test-suite"))
            return
        }
        var totals: [String: (passed: Int, total: Int)] = [:]
        for file in JSONSchemaTestSuiteTests.files {
            let outcome = try JSONSchemaTestSuiteTests.run(file)
            let draft = String(file.prefix(while: { $0 != "/" }))
            let part =
                file.contains("/optional/format/") ? "format" : file.contains("/optional/") ? "optional" : "required"
            let key = "\(draft) \(part)"
            totals[key, default: (0, 0)].passed += outcome.total - outcome.failures.count
            totals[key, default: (0, 0)].total += outcome.total
        }
        print("| dialect part | passed | total | % |")
        for (key, count) in totals.sorted(by: { $0.key < $1.key }) {
            let percent = Double(count.passed) * 100 / Double(max(count.total, 1))
            print("| \(key) | \(count.passed) | \(count.total) | \(String(format: "%.1f", percent)) |")
            let target: Double = key.hasSuffix("required") ? 100 : key.hasSuffix("format") ? 95 : 90
            #expect(percent >= target, "\(key): \(percent)% is below \(target)%")
        }
    }
}
