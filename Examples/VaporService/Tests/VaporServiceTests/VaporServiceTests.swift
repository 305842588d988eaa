import AsyncHTTPClient
import Foundation
import NIOCore
import Parley
import ParleyHTTP
import Testing
import Vapor
import VaporServiceApp

/// The service on a live server (127.0.0.1, an ephemeral port), called through AsyncHTTPClient.
@Suite struct VaporServiceTests {
    static let types = ["application/json", "application/yaml", "application/xml", "application/x-plist",
                        "application/msgpack", "text/csv"]

    @Test(arguments: types)
    func answersTheCatalogueInEveryLinkedFormat(type: String) async throws {
        try await withService { send in
            let (status, headers, body) = try await send(.GET, "/books", [("Accept", type)], nil)
            #expect(status == 200)
            #expect(headers.first(name: "Content-Type").flatMap { MediaType($0) }?.essence == type)
            #expect(headers.first(name: "Vary") == "Accept")
            // What the core's reply path writes for that type, byte for byte.
            let reply = try ParleyServer(registry: Service.registry).reply(encoding: Book.catalogue, accepting: type)
            #expect(body == reply.body)
            if !["application/xml", "text/csv"].contains(type) {   // XML and CSV hold strings only
                let contentType = try #require(headers.first(name: "Content-Type").flatMap { MediaType($0) })
                let books = try Service.registry.decode([Book].self, from: body, contentType: contentType)
                #expect(books == Book.catalogue)
            }
        }
    }

    @Test func acceptsABookInYAMLAndAnswersInXML() async throws {
        try await withService { send in
            let yaml = "id: 4\ntitle: The Art of Computer Programming\nauthor: Donald Knuth\nyear: 1968\n"
            let (status, headers, body) = try await send(
                .POST, "/books", [("Content-Type", "application/yaml"), ("Accept", "application/xml")],
                Array(yaml.utf8))
            #expect(status == 201)
            #expect(headers.first(name: "Location") == "/books/4")
            #expect(headers.first(name: "Content-Type") == "application/xml; charset=utf-8")
            let document = try Service.registry.decodeValue(body, contentType: "application/xml")
            #expect(document["root"]?["title"] == "The Art of Computer Programming")
            #expect(document["root"]?["year"] == "1968")
        }
    }

    @Test func answersAValueTreeInMessagePack() async throws {
        try await withService { send in
            let (status, headers, body) = try await send(.GET, "/stats", [("Accept", "application/msgpack")], nil)
            #expect(status == 200)
            #expect(headers.first(name: "Content-Type") == "application/msgpack")
            let stats = try Service.registry.decodeValue(body, contentType: "application/msgpack")
            #expect(stats["books"] == 3)
            #expect(stats["earliest"] == 1843)
        }
    }

    @Test func understandsAnUploadInAnyFormat() async throws {
        try await withService { send in
            let plist = try ParleyServer(registry: Service.registry)
                .reply(with: ["name": "upload", "size": 3], accepting: "application/x-plist")
            let (status, _, body) = try await send(
                .POST, "/upload", [("Content-Type", plist.contentType.description), ("Accept", "application/json")],
                plist.body)
            #expect(status == 200)
            let summary = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
            #expect(summary?["kind"] as? String == "object")
            #expect((summary?["document"] as? [String: Any])?["size"] as? Int == 3)
        }
    }

    @Test func answersErrorsAsProblemDetails() async throws {
        try await withService { send in
            let (status, headers, body) = try await send(.GET, "/books/99", [("Accept", "application/yaml")], nil)
            #expect(status == 404)
            #expect(headers.first(name: "Content-Type") == "application/yaml; charset=utf-8")
            #expect(String(decoding: body, as: UTF8.self).contains("no book 99"))
            let (refused, _, _) = try await send(.GET, "/books", [("Accept", "image/png")], nil)
            #expect(refused == 406)
            let (unsupported, _, _) = try await send(.POST, "/upload", [("Content-Type", "image/png")], [1, 2])
            #expect(unsupported == 415)
        }
    }
}

typealias Send = @Sendable (HTTPMethod, String, [(String, String)], [UInt8]?) async throws
    -> (Int, HTTPHeaders, [UInt8])

/// Runs `body` against the configured service on a live server, through a real HTTP client.
func withService(_ body: (Send) async throws -> Void) async throws {
    let app = try await Application.make(.testing)
    app.logger.logLevel = .error
    var failure: (any Error)?
    do {
        try configure(app)
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        let port = try #require(app.http.server.shared.localAddress?.port)
        try await body { method, path, headers, content in
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
            request.method = method
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let content { request.body = .bytes(ByteBuffer(bytes: content)) }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let collected = try await response.body.collect(upTo: 16 << 20)
            return (Int(response.status.code), response.headers, Array(collected.readableBytesView))
        }
    } catch {
        failure = error
    }
    await app.server.shutdown()
    try await app.asyncShutdown()
    if let failure { throw failure }
}

extension Registry {
    /// Decodes a body as a client would.
    func decodeValue(_ body: [UInt8], contentType: MediaType) throws -> Value {
        guard let match = decoder(for: contentType) else { throw ParleyError(.unsupportedMediaType, "\(contentType)") }
        return try match.decode(body, contentType: contentType)
    }
}
