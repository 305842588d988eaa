import Foundation
import Testing

/// The shell completion scripts `make install` installs, as `parley --generate-completion-script`
/// (swift-argument-parser) writes them.
@Suite struct CompletionScriptTests {
    static let subcommands = ["formats", "negotiate", "media-type", "match", "decode", "check"]

    @Test(arguments: ["bash", "zsh", "fish"])
    func scriptsNameEverySubcommand(shell: String) throws {
        let result = try ParleyProcess.run(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.count > 1000)
        for command in Self.subcommands { #expect(result.stdout.contains(command), "\(shell) lacks \(command)") }
        // Options by name (fish writes them without the dashes) and --color's values.
        #expect(result.stdout.contains("content-type"))
        #expect(result.stdout.contains("no-color"))
        #expect(result.stdout.contains("always"))
    }

    @Test func theBashScriptIsValidBash() throws {
        let script = try ParleyProcess.run(["--generate-completion-script", "bash"]).stdout
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-completion-\(UUID().uuidString).bash")
        try Data(script.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-n", file.path]
        try bash.run()
        bash.waitUntilExit()
        #expect(bash.terminationStatus == 0)
    }
}
