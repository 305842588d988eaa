public import Vapor

/// The service's Codable resource.
public struct Book: Content, Equatable {
    public var id: Int
    public var title: String
    public var author: String
    public var year: Int

    public init(id: Int, title: String, author: String, year: Int) {
        self.id = id
        self.title = title
        self.author = author
        self.year = year
    }

    /// The catalogue the service serves.
    public static let catalogue = [
        Book(id: 1, title: "Sketch of the Analytical Engine", author: "Ada Lovelace", year: 1843),
        Book(id: 2, title: "On Computable Numbers", author: "Alan Turing", year: 1936),
        Book(id: 3, title: "A Mathematical Theory of Communication", author: "Claude Shannon", year: 1948),
    ]
}
