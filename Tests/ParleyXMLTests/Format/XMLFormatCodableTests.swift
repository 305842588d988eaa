import FoundationEssentials
import Parley
import ParleyXML
import Testing

/// A `Decodable` type reads back from what `XMLFormat` wrote for it, and from XML written by hand.
@Suite struct XMLFormatCodableTests {
    struct Book: Codable, Equatable {
        var id: Int
        var title: String
        var price: Double
        var tags: [String]
    }

    let registry = Registry(formats: [XMLFormat()])

    func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        let body = try XMLFormat().encode(ValueEncoder().encode(value), as: "application/xml")
        return try registry.decode(T.self, from: body, contentType: "application/xml")
    }

    @Test func aReplyOfABookDecodesBackToTheBook() throws {
        for book in [Book(id: 7, title: "Dune", price: 12.5, tags: ["sf", "classic"]),
                     Book(id: -1, title: "One tag", price: 0.1, tags: ["only"]),
                     Book(id: 0, title: "No tags", price: 1e21, tags: [])] {
            #expect(try roundTrip(book) == book)
        }
    }

    @Test func arraysAndSingleMemberObjectsRoundTrip() throws {
        let books = [Book(id: 1, title: "A", price: 1, tags: ["x"]), Book(id: 2, title: "B", price: 2, tags: [])]
        #expect(try roundTrip(books) == books)
        #expect(try roundTrip([books[0]]) == [books[0]])
        struct Shelf: Codable, Equatable { var book: Book }
        #expect(try roundTrip(Shelf(book: books[0])) == Shelf(book: books[0]))
    }

    @Test func aBookReadsFromHandWrittenXMLWithAnyRootName() throws {
        let body = """
            <?xml version="1.0"?>
            <book>
              <id> 7 </id>
              <title>Dune</title>
              <price>12.50</price>
              <tags>sf</tags>
            </book>
            """
        let book = try registry.decode(Book.self, from: Array(body.utf8), contentType: "application/xml")
        #expect(book == Book(id: 7, title: "Dune", price: 12.5, tags: ["sf"]))
    }

    @Test func textThatIsNotANumberNamesThePath() throws {
        let body = "<book><id>seven</id><title>t</title><price>1</price></book>"
        let error = try #require(throws: ParleyError.self) {
            try registry.decode(Book.self, from: Array(body.utf8), contentType: "application/xml")
        }
        #expect(error.code == .decodingFailed)
        #expect(error.message.contains("id"))
        #expect(error.message.contains("seven"))
    }
}
