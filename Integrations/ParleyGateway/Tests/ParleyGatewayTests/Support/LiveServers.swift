import Foundation
import Hummingbird
import Logging
import NIOCore
import Parley
import ParleyGateway
import ServiceLifecycle

/// A quiet logger for the servers under test.
let quietLogger: Logger = {
    var logger = Logger(label: "parley-gateway-tests")
    logger.logLevel = .critical
    return logger
}()

/// Runs `router`'s application on 127.0.0.1 at an ephemeral port for the length of `body`, which
/// gets its base URL; then shuts it down gracefully.
func withUpstream<Result: Sendable>(_ router: Router<BasicRequestContext>,
                                    _ body: @Sendable (URL) async throws -> Result) async throws -> Result {
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                          onServerRunning: { channel in
                              continuation.yield(channel.localAddress?.port ?? 0)
                              continuation.finish()
                          },
                          logger: quietLogger)
    return try await running(app, ports: ports) { port in try await body(URL(string: "http://127.0.0.1:\(port)")!) }
}

/// Runs a gateway in front of `upstream` (configured further by `configure`) on 127.0.0.1 at an
/// ephemeral port for the length of `body`, which gets the gateway's addresses.
func withGateway<Result: Sendable>(
    upstream: URL, logger: Logger = quietLogger, accessLogger: Logger? = nil, logWriters: [LogLineWriter] = [],
    configure: (inout GatewayConfiguration) -> Void = { _ in },
    _ body: @Sendable (Gateway.Addresses) async throws -> Result
) async throws -> Result {
    var configuration = GatewayConfiguration(listen: HostAndPort(host: "127.0.0.1", port: 0), upstream: upstream)
    configure(&configuration)
    let (bound, continuation) = AsyncStream<Gateway.Addresses>.makeStream()
    let gateway = Gateway(configuration: configuration, registry: .linked, logger: logger, accessLogger: accessLogger,
                          logWriters: logWriters) { addresses in
        continuation.yield(addresses)
        continuation.finish()
    }
    let services = ServiceGroup(configuration: .init(services: [gateway], gracefulShutdownSignals: [], logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await services.run() }
        var iterator = bound.makeAsyncIterator()
        let result: Swift.Result<Result, any Error>
        if let addresses = await iterator.next() {
            do { result = .success(try await body(addresses)) } catch { result = .failure(error) }
        } else {
            result = .failure(GatewayConfigurationError("the gateway did not start"))
        }
        await services.triggerGracefulShutdown()
        try await group.waitForAll()
        return try result.get()
    }
}

private func running<Result: Sendable>(_ app: some Service, ports: AsyncStream<Int>,
                                       _ body: @Sendable (Int) async throws -> Result) async throws -> Result {
    let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: quietLogger))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        let result: Swift.Result<Result, any Error>
        if port > 0 {
            do { result = .success(try await body(port)) } catch { result = .failure(error) }
        } else {
            result = .failure(GatewayConfigurationError("the server did not start"))
        }
        await services.triggerGracefulShutdown()
        try await group.waitForAll()
        return try result.get()
    }
}
