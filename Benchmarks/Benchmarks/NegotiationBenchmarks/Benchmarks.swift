import Benchmark
import Foundation
import Parley
import PerfWorkloads

// The engine's own overhead: Accept negotiation, Content-Type parsing, registry lookup.
// Inputs are the Accept headers real clients send, against six offers a JSON/XML/YAML API has.

/// With `PARLEY_BENCHMARK_GATE` set (CI), only malloc counts are measured: they are
/// deterministic, and committed thresholds in Thresholds/ gate them. Time is reported, not gated.
let gate = ProcessInfo.processInfo.environment["PARLEY_BENCHMARK_GATE"] != nil
let metrics: [BenchmarkMetric] = gate ? [.mallocCountTotal] : [.wallClock, .mallocCountTotal]

let benchmarks: @Sendable () -> Void = {
    let noMallocGrowth: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(absolute: [.p90: 0])]
    let allocations = Benchmark.Configuration(metrics: metrics, scalingFactor: .kilo,
                                              maxDuration: .seconds(gate ? 1 : 2), thresholds: noMallocGrowth)
    let negotiator = AcceptNegotiator(offers: apiOffers)

    for (name, header) in clientAcceptHeaders {
        Benchmark("Accept.negotiate-\(name)-6offers", configuration: allocations) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(negotiator.preferredOfferIndex(forAccept: header))
            }
        }
    }

    let hostile = Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(2), thresholds: noMallocGrowth)
    Benchmark("Accept.negotiate-1000elements-6offers", configuration: hostile) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(negotiator.preferredOfferIndex(forAccept: thousandElementAccept))
        }
    }

    // Chrome's Accept-Encoding against the four codings Parley writes, in a server's order.
    let encodingNegotiator = EncodingNegotiator(codings: serverCodings)
    Benchmark("AcceptEncoding.negotiate-chrome-4codings", configuration: allocations) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(encodingNegotiator.choice(forAcceptEncoding: chromeAcceptEncoding))
        }
    }

    // A British English browser's Accept-Language against a site in four languages.
    let languageNegotiator = LanguageNegotiator(languages: siteLanguages)
    Benchmark("AcceptLanguage.negotiate-en-GB-4languages", configuration: allocations) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(languageNegotiator.preferredLanguageIndex(forAcceptLanguage: britishAcceptLanguage))
        }
    }

    Benchmark("MediaType.parse-vnd-api-json-charset", configuration: allocations) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? MediaType(parsing: "application/vnd.api+json; charset=utf-8"))
        }
    }

    Benchmark("Registry.decoder-suffix-match", configuration: allocations) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(applicationRegistry.decoder(for: problemJSON)?.rank)
        }
    }

    Benchmark("Registry.decoder-content-type-string", configuration: allocations) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(applicationRegistry.decoder(forContentType: "application/json; charset=utf-8")?.rank)
        }
    }

    Benchmark("Registry.encoder-chrome", configuration: allocations) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(applicationRegistry.encoder(forAccept: clientAcceptHeaders[0].accept)?.mediaType)
        }
    }
}
