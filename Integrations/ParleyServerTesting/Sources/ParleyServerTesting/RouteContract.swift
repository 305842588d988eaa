public import Parley

/// The routes a server under test exposes so ``LiveTable`` can run against it, and the data
/// they serve. Every Parley server integration (Hummingbird, Vapor) implements exactly this.
///
/// | route | behaviour |
/// |---|---|
/// | `GET /resource` | ``items`` as a `Codable` `[Item]` in the format `Accept` prefers (406 when none is acceptable) |
/// | `HEAD /resource` | the same head as `GET /resource`, no body |
/// | `GET /value` | ``value``, a raw ``Value`` tree, negotiated the same way |
/// | `POST /echo` | decodes the body by its `Content-Type` to a ``Value`` and answers it, negotiated |
/// | `POST /upload` | decodes the body by its `Content-Type` into `[Item]` and answers a ``Receipt``, negotiated |
///
/// The server's registry holds the six built-in formats (JSON first, so a request without
/// `Accept`, or with `*/*`, is answered in JSON), and may add the core's own formats after them.
/// Limits the table relies on: request bodies up to ``maxRequestBodyBytes`` are read, a larger one
/// is 413; a `Content-Encoding: gzip`/`deflate` body is undone within ``maxDecompressedBytes``
/// (more is 413). Every failure is an RFC 9457 problem document in a format the client accepts
/// (JSON when it accepts none): 406 and 415 problems name the types in their text (406 the
/// encodable types, 415 the decodable ones, the 415 also in an `Accept` field); a malformed
/// `Accept` or `Content-Type` is a 400 problem. Negotiated answers, problems included, carry
/// `Vary: Accept`.
public enum RouteContract {
    /// One record of the resource.
    public struct Item: Codable, Sendable, Hashable {
        /// The identifier.
        public var id: Int
        /// The name.
        public var name: String
        /// The price.
        public var price: Double
        /// Whether it is active.
        public var active: Bool

        /// Creates an item.
        public init(id: Int, name: String, price: Double, active: Bool) {
            self.id = id
            self.name = name
            self.price = price
            self.active = active
        }
    }

    /// What `POST /upload` answers: how many items it read and the sum of their prices.
    public struct Receipt: Codable, Sendable, Hashable {
        /// The number of items decoded.
        public var count: Int
        /// The sum of their prices.
        public var total: Double

        /// Creates a receipt.
        public init(count: Int, total: Double) {
            self.count = count
            self.total = total
        }

        /// The receipt for `items`.
        public init(for items: [Item]) {
            self.init(count: items.count, total: items.reduce(0) { $0 + $1.price })
        }
    }

    /// What `GET /resource` answers (a flat table, so every format, CSV included, can carry it).
    public static let items: [Item] = [
        Item(id: 1, name: "alpha", price: 1.5, active: true),
        Item(id: 2, name: "beta", price: 20.25, active: false),
    ]

    /// What `GET /value` answers.
    public static let value: Value = [["name": "alpha", "count": 1], ["name": "beta", "count": 2]]

    /// The largest request body the server reads: 1 MiB. A larger one is 413.
    public static let maxRequestBodyBytes = 1 << 20

    /// The most bytes a request's `Content-Encoding` may decompress to: 1 MiB. More is 413.
    public static let maxDecompressedBytes = 1 << 20

    /// The paths.
    public enum Path {
        /// `GET`/`HEAD`: ``RouteContract/items`` as `Codable`.
        public static let resource = "/resource"
        /// `GET`: ``RouteContract/value`` as a value tree.
        public static let value = "/value"
        /// `POST`: the body's value, answered back.
        public static let echo = "/echo"
        /// `POST`: `[Item]` in, a ``RouteContract/Receipt`` out.
        public static let upload = "/upload"
    }
}
