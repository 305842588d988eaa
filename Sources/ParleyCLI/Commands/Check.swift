import ArgumentParser
import Parley

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check recorded exchanges: every response decodes as its Content-Type claims.")

    @Argument(help: "Files or folders of recordings (default: Fixtures).")
    var paths: [String] = ["Fixtures"]

    func run() throws {
        printError("check: not available yet")
        throw ExitCode.usage
    }
}
