import FoundationEssentials
import Parley
import ParleyHTTP
import ParleyCSV
import ParleyJSON
import ParleyMessagePack
import ParleyPropertyList
import ParleyXML
import ParleyYAML
import Testing

/// Every Codable shape the tests use goes out in every format by `Accept` and comes back as itself:
/// the formats whose scalars are text (XML, CSV, forms) included.
@Suite struct CodableRoundTripTests {
    struct Book: Codable, Equatable {
        var id: Int
        var title: String
        var price: Double
        var tags: [String]
    }

    struct Row: Codable, Equatable {
        var id: Int
        var title: String
        var price: Double
        var inStock: Bool
        var stars: Int8
        var isbn: UInt64
    }

    /// Decimal digits survive where numbers are text (JSON, YAML, XML, CSV, forms); property lists
    /// and MessagePack have no decimal type, so an exact `Decimal` is not a shape that fits them.
    struct Priced: Codable, Equatable {
        var sku: String
        var cost: Decimal
    }

    struct Order: Codable, Equatable {
        struct Line: Codable, Equatable { var sku: String; var quantity: Int }
        var number: Int64
        var placed: Date
        var paid: Bool
        var note: String?
        var lines: [Line]
        var book: Book
    }

    static let registry = Registry(formats: [JSONFormat(), YAMLFormat(), XMLFormat(), PropertyListFormat(), CSVFormat(),
                                             MessagePackFormat()] + Registry.builtInFormats)

    static let book = Book(id: 7, title: "Dune & <Friends>", price: 12.5, tags: ["sf", "classic"])
    static let rows = [Row(id: 1, title: "Dune", price: 12.5, inStock: true, stars: -3, isbn: 9_780_441_013_593),
                       Row(id: 2, title: "Emma, a novel", price: 0.1, inStock: false, stars: 5, isbn: .max)]
    static let prices = [Priced(sku: "a-1", cost: Decimal(string: "7.10")!),
                         Priced(sku: "b-2", cost: Decimal(string: "123456789.123456789")!)]
    static let order = Order(number: 1 << 40, placed: Date(timeIntervalSince1970: 1_714_979_289), paid: true,
                             note: "ring twice", lines: [.init(sku: "a-1", quantity: 2)], book: book)

    static let structured = ["application/json", "application/yaml", "application/xml", "application/x-plist",
                             "application/x-bplist", "application/msgpack"]

    func roundTrip<T: Codable & Equatable>(_ value: T, accept: String) throws -> T {
        let reply = try ParleyServer(registry: Self.registry).reply(encoding: value, accepting: accept)
        #expect(reply.contentType.essence == MediaType(accept)?.essence)
        return try Self.registry.decode(T.self, from: reply.body, contentType: reply.contentType)
    }

    @Test(arguments: structured)
    func everyShapeRoundTrips(accept: String) throws {
        guard Self.registry.encodableMediaTypes.contains(where: { $0.essence == accept }) else {
            Issue.record("\(accept) is not encodable: \(Self.registry.encodableMediaTypes)")
            return
        }
        #expect(try roundTrip(Self.book, accept: accept) == Self.book)
        #expect(try roundTrip(Self.rows, accept: accept) == Self.rows)
        #expect(try roundTrip(Self.order, accept: accept) == Self.order)
        #expect(try roundTrip([Self.book], accept: accept) == [Self.book])
    }

    @Test(arguments: ["application/json", "application/yaml", "application/xml", "text/csv"])
    func decimalsKeepTheirDigitsWhereNumbersAreText(accept: String) throws {
        #expect(try roundTrip(Self.prices, accept: accept) == Self.prices)
    }

    @Test func aDecimalMessagePackCannotHoldExactlyIs406() throws {
        let error = try #require(throws: ParleyError.self) {
            try ParleyServer(registry: Self.registry).reply(encoding: Self.prices, accepting: "application/msgpack")
        }
        #expect(error.code == .notAcceptable)
        #expect(error.acceptableTypes.contains("application/json"))
        #expect(!error.acceptableTypes.contains("application/msgpack"))
    }

    @Test func flatRowsRoundTripThroughCSVAndForms() throws {
        #expect(try roundTrip(Self.rows, accept: "text/csv") == Self.rows)
        #expect(try roundTrip(Self.prices[1], accept: "application/x-www-form-urlencoded") == Self.prices[1])
        #expect(try roundTrip(Self.rows[0], accept: "application/x-www-form-urlencoded") == Self.rows[0])
        #expect(try roundTrip(Self.book, accept: "application/x-www-form-urlencoded") == Self.book)
    }
}
