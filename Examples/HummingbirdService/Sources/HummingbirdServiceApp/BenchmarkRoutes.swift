import FoundationEssentials
public import Hummingbird
import Parley
import ParleyHummingbird

/// One row of the benchmark payloads: 80 to 90 bytes of JSON.
public struct BenchmarkRecord: Codable, Sendable, Hashable, ResponseEncodable {
    /// The identifier.
    public var id: Int
    /// A name.
    public var name: String
    /// An address.
    public var email: String
    /// A score.
    public var score: Double
    /// A flag.
    public var active: Bool
}

/// The payloads: `small` is about 1 KB of JSON, `large` about 100 KB; flat rows, so every format
/// (CSV included) can carry them.
public enum BenchmarkPayload {
    /// About 1 KB of JSON.
    public static let small = records(12)
    /// About 100 KB of JSON.
    public static let large = records(1_120)
    /// `small` as JSON, the request body of the decoding routes.
    public static let smallJSON: [UInt8] = (try? Array(JSONEncoder().encode(small))) ?? []

    static func records(_ count: Int) -> [BenchmarkRecord] {
        (0..<count).map { index in
            BenchmarkRecord(id: index, name: "record \(index)", email: "user\(index)@example.com",
                            score: Double(index) * 1.25, active: index % 2 == 0)
        }
    }
}

/// The routes `make server-bench` measures, each with Hummingbird's own path beside Parley's:
///
/// - `GET /bench/small`, `GET /bench/large`: the payloads negotiated by Parley (any linked format);
/// - `GET /bench/baseline/small`, `GET /bench/baseline/large`: the same values through
///   Hummingbird's own `JSONEncoder` response encoder;
/// - `POST /bench/decode`: a JSON body decoded to `[BenchmarkRecord]` by Parley;
/// - `POST /bench/baseline/decode`: the same through Hummingbird's `JSONDecoder` request decoder.
///
/// Both decode routes answer `200` with the record count as text.
public func addBenchmarkRoutes(to router: Router<ServiceContext>) {
    router.get("/bench/small") { _, _ in BenchmarkPayload.small }
    router.get("/bench/large") { _, _ in BenchmarkPayload.large }
    router.get("/bench/baseline/small") { request, context in
        try JSONEncoder().encode(BenchmarkPayload.small, from: request, context: context)
    }
    router.get("/bench/baseline/large") { request, context in
        try JSONEncoder().encode(BenchmarkPayload.large, from: request, context: context)
    }
    router.post("/bench/decode") { request, context in
        String(try await request.decode(as: [BenchmarkRecord].self, context: context).count)
    }
    router.post("/bench/baseline/decode") { request, context in
        String(try await JSONDecoder().decode([BenchmarkRecord].self, from: request, context: context).count)
    }
}
