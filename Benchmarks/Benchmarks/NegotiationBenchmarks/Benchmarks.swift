import Benchmark
import Foundation
import Parley

// The engine's own overhead: Accept negotiation, Content-Type parsing, registry lookup.
// Inputs are the Accept headers real clients send, against six offers a JSON/XML/YAML API has.

let offers: [MediaType] = ["application/json", "application/xml", "application/yaml", "text/html", "text/plain", "image/png"]
let headers: [(String, String)] = [
    ("chrome", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"),
    ("firefox", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
    ("curl", "*/*"),
    ("java-legacy", "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2"),
]
let thousandElements = (0..<999).map { "application/x-type-\($0);q=0.\($0 % 10)" }.joined(separator: ", ") + ", application/yaml"

struct DeclaredFormat: Format {
    var name: String
    var decodableMediaTypes: [MediaType]
    func decode(_ bytes: UnsafeRawBufferPointer, context: DecodingContext) throws -> Value { .null }
}

let registry = Registry(formats: [
    DeclaredFormat(name: "json", decodableMediaTypes: ["application/json", "application/*+json", "text/json"]),
    DeclaredFormat(name: "xml", decodableMediaTypes: ["application/xml", "text/xml", "application/*+xml"]),
    DeclaredFormat(name: "yaml", decodableMediaTypes: ["application/yaml", "application/x-yaml", "text/yaml"]),
    DeclaredFormat(name: "plist", decodableMediaTypes: ["application/x-plist"]),
    DeclaredFormat(name: "image", decodableMediaTypes: ["image/png", "image/jpeg", "image/gif"]),
] + Registry.builtInFormats)

/// With `PARLEY_BENCHMARK_GATE` set (CI), only malloc counts are measured: they are
/// deterministic, and committed thresholds in Thresholds/ gate them. Time is reported, not gated.
let gate = ProcessInfo.processInfo.environment["PARLEY_BENCHMARK_GATE"] != nil
let metrics: [BenchmarkMetric] = gate ? [.mallocCountTotal] : [.wallClock, .mallocCountTotal]

let benchmarks: @Sendable () -> Void = {
    let noMallocGrowth: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(absolute: [.p90: 0])]
    let allocations = Benchmark.Configuration(metrics: metrics, scalingFactor: .kilo,
                                              maxDuration: .seconds(gate ? 1 : 2), thresholds: noMallocGrowth)
    let negotiator = AcceptNegotiator(offers: offers)

    for (name, header) in headers {
        Benchmark("Accept.negotiate-\(name)-6offers", configuration: allocations) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(negotiator.preferredOfferIndex(forAccept: header))
            }
        }
    }

    Benchmark("Accept.negotiate-1000elements-6offers",
              configuration: .init(metrics: metrics, maxDuration: .seconds(2), thresholds: noMallocGrowth)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(negotiator.preferredOfferIndex(forAccept: thousandElements))
        }
    }

    // Chrome's Accept-Encoding against the four codings Parley writes, in a server's order.
    let encodingNegotiator = EncodingNegotiator(codings: ["zstd", "br", "gzip", "deflate"])
    let chromeAcceptEncoding = "gzip, deflate, br, zstd"
    Benchmark("AcceptEncoding.negotiate-chrome-4codings", configuration: allocations) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(encodingNegotiator.choice(forAcceptEncoding: chromeAcceptEncoding))
        }
    }

    // A British English browser's Accept-Language against a site in four languages.
    let languageNegotiator = LanguageNegotiator(languages: ["de", "en", "fr", "ja"])
    let britishAcceptLanguage = "en-GB,en;q=0.9,de;q=0.8"
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

    let problem = try! MediaType(parsing: "application/problem+json; charset=utf-8")
    Benchmark("Registry.decoder-suffix-match", configuration: allocations) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(registry.decoder(for: problem)?.rank)
        }
    }

    Benchmark("Registry.decoder-content-type-string", configuration: allocations) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(registry.decoder(forContentType: "application/json; charset=utf-8")?.rank)
        }
    }

    Benchmark("Registry.encoder-chrome", configuration: allocations) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(registry.encoder(forAccept: headers[0].1)?.mediaType)
        }
    }
}
