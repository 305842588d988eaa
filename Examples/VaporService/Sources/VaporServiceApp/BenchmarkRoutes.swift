import Foundation
import ParleyVapor
public import Vapor

/// One row of the benchmark payloads: 80 to 90 bytes of JSON.
public struct BenchmarkRecord: Content, Hashable {
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

/// The payloads (the same as the Hummingbird example's): `small` is about 1 KB of JSON, `large`
/// about 100 KB; flat rows, so every format (CSV included) can carry them.
public enum BenchmarkPayload {
    /// About 1 KB of JSON.
    public static let small = records(12)
    /// About 100 KB of JSON.
    public static let large = records(1_120)

    static func records(_ count: Int) -> [BenchmarkRecord] {
        (0..<count).map { index in
            BenchmarkRecord(id: index, name: "record \(index)", email: "user\(index)@example.com",
                            score: Double(index) * 1.25, active: index % 2 == 0)
        }
    }
}

/// The routes `make server-bench` measures, each with Vapor's own JSON path beside Parley's:
///
/// - `GET /bench/small`, `GET /bench/large`: the payloads negotiated by Parley (any linked format);
/// - `GET /bench/baseline/small`, `GET /bench/baseline/large`: the same values written by Vapor's
///   own `JSONEncoder` content encoder (the coder Vapor configures for JSON by default);
/// - `POST /bench/decode`: a JSON body decoded to `[BenchmarkRecord]` by `req.content.decode`,
///   which Parley's coder serves once installed;
/// - `POST /bench/baseline/decode`: the same through Vapor's `JSONDecoder`.
///
/// Both decode routes answer `200` with the record count as text.
public func addBenchmarkRoutes(to app: Application) {
    app.get("bench", "small") { _ in Negotiated(encoding: BenchmarkPayload.small) }
    app.get("bench", "large") { _ in Negotiated(encoding: BenchmarkPayload.large) }
    app.get("bench", "baseline", "small") { req in try baseline(BenchmarkPayload.small, for: req) }
    app.get("bench", "baseline", "large") { req in try baseline(BenchmarkPayload.large, for: req) }
    app.post("bench", "decode") { req in String(try req.content.decode([BenchmarkRecord].self).count) }
    app.post("bench", "baseline", "decode") { req in
        String(try req.content.decode([BenchmarkRecord].self, using: JSONDecoder.custom(dates: .iso8601)).count)
    }
}

/// `records` as Vapor's default JSON coder writes them.
private func baseline(_ records: [BenchmarkRecord], for request: Request) throws -> Response {
    let response = Response(status: .ok)
    try response.content.encode(records, using: JSONEncoder.custom(dates: .iso8601))
    return response
}
