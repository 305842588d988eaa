import Hummingbird
import Logging
import NIOCore
import Parley
import ParleyHTTP
import ParleyCompression
import ParleyHummingbird
import ParleyServerTesting
import ServiceLifecycle

/// The context of the service under test: adopts Parley in one line.
struct ContractContext: ParleyRequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: Source) { coreContext = .init(source: source) }
    static let parley = ParleyServer(registry: .linked, contentCodings: .zlib,
                                     maxRequestBodyBytes: RouteContract.maxRequestBodyBytes,
                                     maxDecompressedBytes: RouteContract.maxDecompressedBytes)
}

/// ``RouteContract``'s routes on Hummingbird.
func contractRouter() -> Router<ContractContext> {
    let router = Router(context: ContractContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: ParleyMiddleware())
    router.get(RouterPath(RouteContract.Path.resource)) { _, _ in RouteContract.items }
    router.get(RouterPath(RouteContract.Path.value)) { _, _ in Negotiated(RouteContract.value) }
    router.post(RouterPath(RouteContract.Path.echo)) { request, context in
        Negotiated(try await context.requestDecoder.decodeValue(from: request))
    }
    router.post(RouterPath(RouteContract.Path.upload)) { request, context in
        let items = try await request.decode(as: [RouteContract.Item].self, context: context)
        return Negotiated(RouteContract.Receipt(for: items))
    }
    return router
}

/// Runs `router`'s application on 127.0.0.1 at an ephemeral port for the length of `body`,
/// which gets the base URL; then shuts it down gracefully. `logger` (default: quiet) is the
/// application's, which request contexts log to.
func withLiveServer<Context: RequestContext, Result: Sendable>(
    _ router: Router<Context>, logger: Logger? = nil, _ body: @Sendable (String) async throws -> Result
) async throws -> Result where Context.Source == ApplicationRequestContextSource {
    var quiet = Logger(label: "parley-hummingbird-tests")
    quiet.logLevel = .critical
    let logger = logger ?? quiet
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                          onServerRunning: { channel in
                              continuation.yield(channel.localAddress?.port ?? 0)
                              continuation.finish()
                          },
                          logger: logger)
    let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        let result: Swift.Result<Result, any Error>
        if port > 0 {
            do { result = .success(try await body("http://127.0.0.1:\(port)")) } catch { result = .failure(error) }
        } else {
            result = .failure(HTTPError(.internalServerError, message: "the server did not start"))
        }
        await services.triggerGracefulShutdown()
        try await group.waitForAll()
        return try result.get()
    }
}
