import FoundationEssentials
package import Parley
import ParleyFixtures
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The registry the running `parley` uses, set once by ``ParleyCommand/main(registry:arguments:)``
/// and built when a subcommand first asks for it: `media-type` and `negotiate` never do, so they
/// start without building the linked formats' lookup tables.
package enum CommandEnvironment {
    private static let lock = Lock()
    nonisolated(unsafe) private static var makeRegistry: @Sendable () -> Registry = { .builtIn }
    nonisolated(unsafe) private static var built: Registry?

    /// The registry subcommands decode and encode with.
    package static var registry: Registry {
        lock.withLock {
            if let built { return built }
            let registry = makeRegistry()
            built = registry
            return registry
        }
    }

    /// Makes `make` the source of ``registry``, built on first use.
    package static func setRegistry(_ make: @escaping @Sendable () -> Registry) {
        lock.withLock {
            makeRegistry = make
            built = nil
        }
    }
}

/// Writes diagnostics to standard error.
package func printError(_ message: String) {
    Descriptors.writeAll(message + "\n", to: STDERR_FILENO)
}

/// Reads all of standard input or a file; `-` means standard input.
package func readInput(_ path: String?) throws -> [UInt8] {
    if path == nil || path == "-" {
        return try Descriptors.readAll(STDIN_FILENO, name: "standard input")
    }
    guard let data = FileManager.default.contents(atPath: path!) else {
        throw InputError(message: "cannot read '\(path!)'")
    }
    return Array(data)
}

/// An unreadable input: exits 2.
package struct InputError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
