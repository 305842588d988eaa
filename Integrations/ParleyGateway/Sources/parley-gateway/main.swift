import ArgumentParser
import Foundation
import ParleyGateway

// A log or client pipe closed by its reader is an error on that write, not the end of the process.
signal(SIGPIPE, SIG_IGN)

// Bad flags and bad configuration exit 2 (argument-parser's own usage errors would exit 64).
do {
    let command = try GatewayCommand.parse()
    try await command.serve()
} catch let error as GatewayConfigurationError {
    FileHandle.standardError.write(Data("parley-gateway: \(error)\n".utf8))
    exit(2)
} catch {
    if GatewayCommand.exitCode(for: error) == .validationFailure {
        FileHandle.standardError.write(Data("\(GatewayCommand.fullMessage(for: error))\n".utf8))
        exit(2)
    }
    GatewayCommand.exit(withError: error)
}
