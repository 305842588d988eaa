public import Hummingbird
public import Parley
import ParleyHummingbird

/// One record of the catalogue.
public struct Item: Codable, Sendable, Hashable, ResponseEncodable {
    /// The identifier.
    public var id: Int
    /// The name.
    public var name: String
    /// The price.
    public var price: Double
    /// Whether it is on sale.
    public var active: Bool

    /// Creates an item.
    public init(id: Int, name: String, price: Double, active: Bool) {
        self.id = id
        self.name = name
        self.price = price
        self.active = active
    }
}

/// What an upload answers.
public struct Receipt: Codable, Sendable, Hashable, ResponseEncodable {
    /// How many items were read.
    public var count: Int
    /// The sum of their prices.
    public var total: Double

    /// The receipt for `items`.
    public init(for items: [Item]) {
        count = items.count
        total = items.reduce(0) { $0 + $1.price }
    }
}

/// The service's routes (they are also the route contract of Parley's shared live table):
///
/// - `GET /resource`: the catalogue, a `Codable` `[Item]`, in the format `Accept` prefers;
/// - `GET /value`: a raw value tree, negotiated the same way;
/// - `POST /echo`: a body in any linked format, answered back in the format `Accept` prefers;
/// - `POST /upload`: `[Item]` in any linked format (gzip or deflate too), answered with a ``Receipt``;
/// - `/bench/…`: the routes `make server-bench` measures (``addBenchmarkRoutes(to:)``).
public func buildRouter() -> Router<ServiceContext> {
    let router = Router(context: ServiceContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: ParleyMiddleware())
    router.get("/resource") { _, _ in catalogue }
    router.get("/value") { _, _ in Negotiated(summary) }
    router.post("/echo") { request, context in
        Negotiated(try await context.requestDecoder.decodeValue(from: request))
    }
    router.post("/upload") { request, context in
        Receipt(for: try await request.decode(as: [Item].self, context: context))
    }
    addBenchmarkRoutes(to: router)
    return router
}

/// The application on `host` and `port`.
public func buildApplication(host: String = "127.0.0.1", port: Int = 8080) -> some ApplicationProtocol {
    Application(router: buildRouter(), configuration: .init(address: .hostname(host, port: port)))
}

/// The catalogue `GET /resource` answers.
public let catalogue: [Item] = [
    Item(id: 1, name: "alpha", price: 1.5, active: true),
    Item(id: 2, name: "beta", price: 20.25, active: false),
]

/// The value tree `GET /value` answers.
public let summary: Value = [["name": "alpha", "count": 1], ["name": "beta", "count": 2]]
