import Hummingbird
import HummingbirdServiceApp
import Logging
import Parley
import ParleyJSON
import ParleyServerTesting
import ServiceLifecycle
import Testing

/// Runs the service on 127.0.0.1 at an ephemeral port for the length of `body`, then shuts it
/// down gracefully.
func withService<Result: Sendable>(_ body: @Sendable (String) async throws -> Result) async throws -> Result {
    var logger = Logger(label: "hummingbird-service-tests")
    logger.logLevel = .critical
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = Application(router: buildRouter(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
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
            result = .failure(HTTPError(.internalServerError, message: "the service did not start"))
        }
        await services.triggerGracefulShutdown()
        try await group.waitForAll()
        return try result.get()
    }
}

/// The service implements Parley's route contract: the shared live table passes against it.
@Suite struct ServiceContractTests {
    @Test(arguments: LiveTable.cases)
    func passesTheSharedCase(_ testCase: LiveCase) async throws {
        let failures = try await withService { await LiveRunner(baseURL: $0).run(testCase) }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

/// The benchmark routes answer what `make server-bench` compares.
@Suite struct BenchmarkRouteTests {
    @Test(arguments: ["small", "large"])
    func parleyAndHummingbirdSendTheSameJSON(_ size: String) async throws {
        let (parley, baseline) = try await withService { baseURL in
            let runner = LiveRunner(baseURL: baseURL)
            let parley = LiveCase("parley", .get, "/bench/\(size)", headerFields: [.accept: "application/json"],
                                  status: 200)
            return (try await runner.send(parley),
                    try await runner.send(LiveCase("baseline", .get, "/bench/baseline/\(size)", status: 200)))
        }
        #expect(parley.status == 200 && baseline.status == 200)
        #expect(parley.headerFields[.contentType] == "application/json; charset=utf-8")
        let expected = size == "small" ? BenchmarkPayload.small : BenchmarkPayload.large
        #expect(try JSONFormat().decode([BenchmarkRecord].self, from: parley.body) == expected)
        #expect(try JSONFormat().decode([BenchmarkRecord].self, from: baseline.body) == expected)
        let sizes = size == "small" ? 900...1_100 : 95_000...110_000
        #expect(sizes.contains(parley.body.count) && sizes.contains(baseline.body.count),
                "Parley \(parley.body.count) bytes, Hummingbird \(baseline.body.count) bytes")
    }

    @Test(arguments: ["/bench/decode", "/bench/baseline/decode"])
    func bothDecodersReadTheSmallPayload(_ path: String) async throws {
        let answer = try await withService { baseURL in
            try await LiveRunner(baseURL: baseURL).send(
                LiveCase("decode", .post, path, headerFields: [.contentType: "application/json"],
                         body: BenchmarkPayload.smallJSON, status: 200))
        }
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == "\(BenchmarkPayload.small.count)")
    }

    @Test(arguments: ["application/yaml", "application/xml", "application/msgpack", "text/csv"])
    func theLargePayloadNegotiatesToEveryFormat(_ type: String) async throws {
        let answer = try await withService { baseURL in
            try await LiveRunner(baseURL: baseURL).send(
                LiveCase("large", .get, "/bench/large", headerFields: [.accept: type], status: 200))
        }
        #expect(answer.status == 200)
        #expect(answer.headerFields[.contentType]?.hasPrefix(type) == true)
        #expect(answer.body.count > 20_000)
    }
}
