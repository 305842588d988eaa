public import ArgumentParser
public import Parley

/// The `parley` command: content negotiation and recorded-fixture checking from the shell.
///
/// Build your own `parley` with extra formats by depending on `ParleyCLI` and your format
/// modules in an executable target that uses the `ParleyFormatRegistration` plugin:
///
/// ```swift
/// import ParleyCLI
/// import Parley
///
/// @main struct MyParley {
///     static func main() async { await ParleyCommand.main(registry: .linked) }
/// }
/// ```
public struct ParleyCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "parley",
        abstract: "Content negotiation and recorded-exchange checking with Parley.",
        discussion: """
        Exit codes: 0 success; 1 the input was checked and failed (a decode error, a failing \
        fixture); 2 usage error or unreadable input; 3 nothing acceptable or no decoder (406/415).

        Shell completions (`make install` installs them):
          parley --generate-completion-script bash > ~/.local/share/bash-completion/completions/parley
          parley --generate-completion-script zsh  # or fish
        """,
        subcommands: [Formats.self, Negotiate.self, MediaTypeCommand.self, Match.self, Decode.self, Check.self,
                      SchemaCommand.self])

    public init() {}

    /// Runs the command line with `registry` as the formats every subcommand uses.
    ///
    /// `registry` is evaluated when a subcommand first needs the formats (`decode`, `check`,
    /// `formats`, `match` without registered types), not before: `media-type` and `negotiate`
    /// start without building it.
    ///
    /// It runs on the caller's executor: from the top-level code of a `main.swift`, on the main
    /// thread, so every subcommand but `check` (which checks files concurrently) runs without
    /// starting a worker thread (hopping to the global executor instead started four at every
    /// start).
    ///
    /// `schemaLoader` turns `--descriptor-set` files into a configured format (`decode`, `check`,
    /// `formats`); without one the option is an error.
    nonisolated(nonsending) public static func main(registry: @autoclosure @escaping @Sendable () -> Registry,
                                                    schemaLoader: SchemaLoader? = nil,
                                                    arguments: [String]? = nil) async {
        CommandEnvironment.setRegistry(registry)
        CommandEnvironment.setSchemaLoader(schemaLoader)
        if let runBatch = batchRun(for: arguments ?? Array(CommandLine.arguments.dropFirst())) {
            runBatch()
            return
        }
        do {
            var command = try parseAsRoot(arguments)
            // `check` is the one asynchronous subcommand. Its concrete type is tested rather than
            // `any AsyncParsableCommand`: a cast to a protocol scans the binary's conformance
            // records on first use, at every start.
            if let check = command as? Check {
                try await check.run()
            } else {
                try command.run()
            }
        } catch let error as InputError {
            printError("error: \(error)")
            exit(withError: ExitCode.usage)
        } catch {
            // Argument-parser's usage errors exit 64; Parley's contract says 2.
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                exit(withError: ExitCode.usage)
            }
            exit(withError: error)
        }
    }

    /// The batch run `arguments` ask for when they are exactly `MODE --batch` (`media-type`,
    /// `negotiate` or `match`), else `nil`.
    ///
    /// This is the one command line run without argument-parser: its parse reflects over every
    /// command's properties and casts them to protocols, which costs more at start than a
    /// batch's answers (kept, see Benchmarks/Gate/kept-shortcuts.md). Such a run reads no
    /// option, and argument-parser accepts these arguments as they are, so the answer is the
    /// same; any other spelling (`--batch` first, an option, `--help`) goes through
    /// argument-parser.
    static func batchRun(for arguments: [String]) -> (() -> Void)? {
        guard arguments.count == 2, arguments[1] == "--batch" else { return nil }
        switch arguments[0] {
        case MediaTypeCommand.configuration.commandName: return MediaTypeCommand.runBatch
        case Negotiate.configuration.commandName: return Negotiate.runBatch
        case Match.configuration.commandName: return Match.runBatch
        default: return nil
        }
    }
}
