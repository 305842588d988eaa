import Foundation
import Testing

/// The whole loop through SwiftPM, on a temporary package that depends on this checkout the way a
/// new user's does (no marker comments): `swift package new-format` creates the module and edits
/// the manifest through SwiftPM's own commands, `swift build` links and registers it with no
/// warning about the registration marker, `swift test` runs the generated conformance tests, and
/// bad requests are refused.
///
/// It builds Parley's core in a scratch folder kept under `.build/scaffold-e2e` (so a rerun only
/// compiles the new module). Locally, `PARLEY_SKIP_SCAFFOLD_E2E=1` skips it, and if the steps
/// would take longer than `PARLEY_SCAFFOLD_E2E_SECONDS` (default 900) in all, the running step is
/// stopped and the test is cancelled with a message instead of hanging. With `CI=true` it never
/// skips or cancels itself: the skip variable is ignored, a missing `swift` fails, and a step past
/// the budget is a failure (a fresh clone builds the core here in a few minutes, well inside it).
@Suite struct NewFormatPluginTests {
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let isEnabled = isCI
        || (ProcessInfo.processInfo.environment["PARLEY_SKIP_SCAFFOLD_E2E"] == nil && ScaffolderProcess.swift != nil)

    @Test(.enabled(if: isEnabled, "PARLEY_SKIP_SCAFFOLD_E2E is set, or no swift on PATH"), .timeLimit(.minutes(20)))
    func scaffoldsBuildsRegistersAndRefusesThroughSwiftPM() throws {
        let swift = try #require(ScaffolderProcess.swift, "no swift on PATH")
        let budget = Double(ProcessInfo.processInfo.environment["PARLEY_SCAFFOLD_E2E_SECONDS"] ?? "") ?? 900
        let deadline = Date().addingTimeInterval(budget)
        let scratch = ScaffolderProcess.packageRoot.appendingPathComponent(".build/scaffold-e2e").path
        let package = try TemporaryPackage()
        defer { package.remove() }

        func swiftPM(_ arguments: [String]) throws -> ScaffolderProcess.Result {
            let result = try ScaffolderProcess.run(swift, arguments, directory: package.directory,
                                                   seconds: max(1, deadline.timeIntervalSinceNow))
            if result.timedOut {
                let message = "swift \(arguments.first ?? "") exceeded the \(Int(budget)) s budget "
                    + "(PARLEY_SCAFFOLD_E2E_SECONDS)"
                if Self.isCI { throw BudgetExceeded(message: message + ": with CI=true this is a failure, not a skip") }
                try Test.cancel("\(message); skipped")
            }
            return result
        }
        let newFormat = ["package", "--scratch-path", scratch, "--allow-writing-to-package-directory", "new-format"]

        // Refused: an invalid media type, through the plugin.
        let invalid = try swiftPM(newFormat + ["--name", "Kv", "--media-type", "application/"])
        #expect(invalid.status != 0)
        #expect((invalid.stdout + invalid.stderr).contains("not a valid media type"), "\(invalid.stderr)")
        #expect(!package.exists("Sources/Kv"))

        // Created.
        let created = try swiftPM(newFormat + ["--name", "Kv", "--media-type", "application/vnd.example.kv"])
        try #require(created.status == 0, "\(created.stdout)\(created.stderr)")
        #expect(package.exists("Sources/Kv/KvFormat.swift"))
        #expect(package.exists("Tests/KvTests/KvFormatTests.swift"))
        #expect(created.stdout.contains("Linked into ShowFormats"), "the plugin links executables that use Parley")

        // Refused: the name is now taken.
        let taken = try swiftPM(newFormat + ["--name", "Kv", "--media-type", "application/vnd.example.kv"])
        #expect(taken.status != 0)
        #expect((taken.stdout + taken.stderr).contains("is taken"))

        // Builds, registers, passes the kit.
        let built = try swiftPM(["build", "--scratch-path", scratch, "--build-tests"])
        try #require(built.status == 0, "\(built.stdout.suffix(3000))\(built.stderr.suffix(3000))")
        #expect(!(built.stdout + built.stderr).contains("unhandled"), "parley-format.json is excluded from the target")
        let shown = try ScaffolderProcess.run(URL(fileURLWithPath: scratch + "/debug/ShowFormats"), [])
        #expect(shown.stdout == "kv application/vnd.example.kv\n")
        let tested = try swiftPM(["test", "--scratch-path", scratch, "--skip-build", "--filter", "KvTests"])
        #expect(tested.status == 0, "\(tested.stdout.suffix(3000))\(tested.stderr.suffix(2000))")
        #expect(tested.stdout.contains("conformsToTheKit()"))
    }
}

/// The end-to-end test ran out of its time budget in CI.
struct BudgetExceeded: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
