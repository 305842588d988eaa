import Bookshop
import HTTPTypes
import Parley
import ParleyHTTP
import Testing

/// The newcomer's first hour, end to end: encode by `Accept`, decode back from every format,
/// 406 and 415.
@Suite struct BookshopTests {
    let shop = Bookshop()
    let book = Book(id: 7, title: "Dune", price: 12.5, tags: ["sf", "classic"])
    let listings = [Listing(id: 7, title: "Dune", price: 12.5, inStock: true),
                    Listing(id: 8, title: "Emma, a novel", price: 0.1, inStock: false)]

    func request(accept: String? = nil, contentType: String? = nil, method: HTTPRequest.Method = .get) -> HTTPRequest {
        var request = HTTPRequest(method: method, scheme: "https", authority: "books.example", path: "/books/7")
        if let accept { request.headerFields[.accept] = accept }
        if let contentType { request.headerFields[.contentType] = contentType }
        return request
    }

    @Test(arguments: ["application/json", "application/yaml", "application/xml", "application/x-plist",
                      "application/msgpack"])
    func aBookGoesOutAsAskedAndComesBack(accept: String) throws {
        let reply = try shop.answer(book, to: request(accept: accept))
        #expect(reply.contentType.essence == accept)
        #expect(reply.response().headerFields[.vary] == "Accept")
        let decoded = try shop.registry.decode(Book.self, from: reply.body, contentType: reply.contentType)
        #expect(decoded == book)
    }

    @Test func listingsGoOutAsCSVAndComeBack() throws {
        let reply = try shop.answer(listings, to: request(accept: "text/csv"))
        #expect(reply.contentType.essence == "text/csv")
        #expect(try shop.registry.decode([Listing].self, from: reply.body, contentType: reply.contentType) == listings)
        // A CSV written by hand, without a header parameter: the header row is recognised.
        let handWritten = Array("id,title,price,inStock\r\n7,Dune,12.5,true\r\n".utf8)
        #expect(try shop.registry.decode([Listing].self, from: handWritten, contentType: "text/csv") == [listings[0]])
    }

    @Test func aBookReadsFromXMLWrittenByHand() throws {
        let xml = Array("<book><id>7</id><title>Dune</title><price>12.5</price><tags>sf</tags></book>".utf8)
        #expect(try shop.registry.decode(Book.self, from: xml, contentType: "application/xml")
                == Book(id: 7, title: "Dune", price: 12.5, tags: ["sf"]))
    }

    @Test(arguments: ["text/plain", "text/*", "application/octet-stream", "text/csv"])
    func aTypeThatCannotHoldABookIs406ListingTheTypesThatCan(accept: String) throws {
        let (head, body) = shop.respond(with: book, to: request(accept: accept))
        #expect(head.status == .notAcceptable)
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains("application/json"))
        #expect(!text.contains("text/plain"))
    }

    @Test func aBodyNoFormatDecodesIs415() throws {
        let error = try #require(throws: ParleyError.self) {
            try shop.receive(Array("x".utf8), of: request(contentType: "video/mp4", method: .post))
        }
        #expect(error.code == .unsupportedMediaType)
        #expect(error.impliedStatus == .unsupportedMediaType)
        var gzipped = request(contentType: "application/json", method: .post)
        gzipped.headerFields[.contentEncoding] = "gzip"
        #expect(throws: ParleyError.self) { try shop.receive(Array("{}".utf8), of: gzipped) }
    }

    @Test(arguments: ["application/json", "application/yaml", "application/xml", "application/x-www-form-urlencoded"])
    func aBookSentInAnyFormatIsReceived(contentType: String) throws {
        let body = try shop.answer(book, to: request(accept: contentType)).body
        #expect(try shop.receive(body, of: request(contentType: contentType, method: .post)) == book)
    }
}
