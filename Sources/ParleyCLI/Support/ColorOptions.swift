import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
package import ParleyFixtures

/// When a command colours its output: `--color auto|always|never` and `--no-color`.
package enum ColorChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Colour a stream only when it is a terminal, `NO_COLOR` is unset or empty, and `TERM` is not `dumb`.
    case auto
    /// Colour standard output and standard error even when they are pipes (for `less -R`).
    case always
    /// Never colour.
    case never
}

/// The colour flags of the commands that colour their output.
///
/// `auto` follows no-color.org: a `NO_COLOR` environment variable with any non-empty value turns
/// colour off; an explicit `--color always` on the command line wins over it. A report written
/// with `--output` to a file is never coloured.
struct ColorOptions: ParsableArguments {
    @Option(name: .customLong("color"),
            help: "Colour outcomes: auto (on a terminal unless NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Flag(name: .customLong("no-color"), help: "Never colour (the same as --color never).")
    var noColor = false

    func validate() throws {
        if noColor && color == .always { throw ValidationError("--no-color and --color always exclude each other") }
    }

    /// The style for standard output (`1`) or standard error (`2`).
    func style(forDescriptor descriptor: Int32) -> TerminalStyle {
        ColorPolicy.style(choice: noColor ? .never : color, isTerminal: isatty(descriptor) == 1,
                          environment: ProcessInfo.processInfo.environment)
    }
}

/// The colour decision, apart from the process so tests can give it any terminal and environment.
package enum ColorPolicy {
    /// Whether a stream gets colour under `choice`.
    package static func style(choice: ColorChoice, isTerminal: Bool, environment: [String: String]) -> TerminalStyle {
        switch choice {
        case .always: return .colored
        case .never: return .plain
        case .auto:
            let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
            let dumb = environment["TERM"] == "dumb"
            return isTerminal && !noColor && !dumb ? .colored : .plain
        }
    }
}
