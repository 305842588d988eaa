/// A book, as the README's newcomer writes it: plain `Codable`, nothing Parley-specific.
public struct Book: Codable, Equatable, Sendable {
    public var id: Int
    public var title: String
    public var price: Double
    public var tags: [String]

    public init(id: Int, title: String, price: Double, tags: [String]) {
        self.id = id
        self.title = title
        self.price = price
        self.tags = tags
    }
}

/// A book as a CSV row: CSV holds flat records, so no list of tags.
public struct Listing: Codable, Equatable, Sendable {
    public var id: Int
    public var title: String
    public var price: Double
    public var inStock: Bool

    public init(id: Int, title: String, price: Double, inStock: Bool) {
        self.id = id
        self.title = title
        self.price = price
        self.inStock = inStock
    }
}
