import Foundation
import Parley
import ParleyHTTP
import ParleyCompression
import ParleyJSON
import ParleyVapor
import Testing
import Vapor

/// Negotiated replies, errors and request codings, on a live server through a real client.
@Suite struct LiveNegotiationTests {
    @Test(arguments: [
        ("application/json", "application/json"),
        ("application/yaml", "application/yaml"),
        ("application/xml", "application/xml"),
        ("application/x-plist", "application/x-plist"),
        ("application/msgpack", "application/msgpack"),
        ("text/csv", "text/csv"),
        ("application/yaml;q=0.5, application/xml;q=0.9", "application/xml"),
        ("text/*, application/json;q=0.1", "text/csv"),
        ("*/*", "application/json"),
    ])
    func negotiatesTheReplyByAccept(accept: String, expected: String) async throws {
        try await withLiveServer { client in
            let response = try await client.send(.GET, "/tree", headers: [("Accept", accept)])
            #expect(response.status == 200)
            #expect(response.contentType.flatMap { MediaType($0) }?.essence == expected)
            #expect(response.headers.first(name: "Vary") == "Accept")
            // Byte for byte what the core's reply path writes for that type.
            let direct = try ParleyServer(registry: testRegistry).reply(with: flatTree, accepting: expected)
            #expect(response.body == direct.body)
            #expect(response.contentType == direct.contentType.description)
        }
    }

    @Test func answers406WithAProblemListingTheAvailableTypes() async throws {
        try await withLiveServer { client in
            let response = try await client.send(.GET, "/user", headers: [("Accept", "image/png")])
            #expect(response.status == 406)
            #expect(response.contentType == "application/problem+json; charset=utf-8")
            let problem = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(problem?["status"] as? Int == 406)
            let acceptable = problem?["acceptable"] as? [String] ?? []
            #expect(acceptable.contains("application/json"))
            #expect(acceptable.contains("application/yaml"))
        }
    }

    @Test func answers415WithAcceptListingTheDecodableTypes() async throws {
        try await withLiveServer { client in
            for path in ["/echo", "/content"] {
                let response = try await client.send(.POST, path, headers: [("Content-Type", "image/png")],
                                                     body: [1, 2, 3])
                #expect(response.status == 415, "\(path)")
                #expect(response.headers.first(name: "Accept")?.contains("application/yaml") == true, "\(path)")
                #expect(response.contentType?.hasPrefix("application/problem+json") == true, "\(path)")
            }
        }
    }

    @Test func answers413OverTheBodyLimit() async throws {
        try await withLiveServer(maxBodySize: 1024) { client in
            let big = Array(#"{"id":1,"name":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: 4096)
                + Array(#"","tags":[],"active":true}"#.utf8)
            let response = try await client.send(.POST, "/echo", headers: [("Content-Type", "application/json")],
                                                 body: big)
            #expect(response.status == 413)
            #expect(response.contentType?.hasPrefix("application/problem+json") == true)
        }
    }

    @Test func decompressesGzipAndDeflateRequestBodies() async throws {
        try await withLiveServer { client in
            let json = Array(#"{"id":7,"name":"Ada Lovelace","tags":["math","engines"],"active":true}"#.utf8)
            for coding in [ContentCoding.gzip, .deflate] {
                let response = try await client.send(.POST, "/echo", headers: [
                    ("Content-Type", "application/json"), ("Content-Encoding", coding.rawValue),
                    ("Accept", "application/json"),
                ], body: Compressor().compress(json, coding: coding))
                #expect(response.status == 200, "\(coding): \(response.text)")
                #expect(try JSONDecoder().decode(User.self, from: Data(response.body)) == ada)
            }
        }
    }

    @Test func stopsAGzipBombWith413() async throws {
        try await withLiveServer(maxBodySize: 64 << 10) { client in
            // 16 MB of spaces inside a JSON string: about 16 KB compressed, under the limit.
            let spaces = Array(#"{"id":1,"name":""#.utf8) + Array(repeating: 0x20, count: 16 << 20) + Array(#""}"#.utf8)
            let bomb = Compressor(level: 9).compress(spaces, coding: .gzip)
            #expect(bomb.count < 64 << 10)
            let response = try await client.send(.POST, "/echo", headers: [
                ("Content-Type", "application/json"), ("Content-Encoding", "gzip"),
            ], body: bomb)
            #expect(response.status == 413, "\(response.text)")
        }
    }

    @Test func refusesAnUnknownContentCodingWith415() async throws {
        try await withLiveServer { client in
            let response = try await client.send(.POST, "/echo", headers: [
                ("Content-Type", "application/json"), ("Content-Encoding", "br"),
            ], body: [1, 2, 3])
            #expect(response.status == 415)
            #expect(response.headers.first(name: "Accept-Encoding")?.contains("gzip") == true)
        }
    }

    @Test func corruptGzipIs400() async throws {
        try await withLiveServer { client in
            let response = try await client.send(.POST, "/echo", headers: [
                ("Content-Type", "application/json"), ("Content-Encoding", "gzip"),
            ], body: [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 0xFF, 0xFF])
            #expect(response.status == 400)
        }
    }

    @Test(arguments: ["application/json; charset=\"utf-8", "application/", "json", "text/plain; =x"])
    func malformedContentTypeIs400(contentType: String) async throws {
        try await withLiveServer { client in
            for path in ["/echo", "/content"] {
                let response = try await client.send(.POST, path, headers: [("Content-Type", contentType)],
                                                     body: Array("{}".utf8))
                #expect(response.status == 400, "\(path)")
                #expect(response.contentType?.hasPrefix("application/problem+json") == true, "\(path)")
            }
        }
    }

    @Test func answersHeadWithTheHeadOfGetAndNoBody() async throws {
        try await withLiveServer { client in
            let get = try await client.send(.GET, "/user", headers: [("Accept", "application/yaml")])
            let head = try await client.send(.HEAD, "/user", headers: [("Accept", "application/yaml")])
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.contentType == get.contentType)
            #expect(head.headers.first(name: "Vary") == "Accept")
            #expect(head.headers.first(name: "Content-Length") == String(get.body.count))
        }
    }

    @Test func problemsFollowAcceptAndHideUnexpectedErrors() async throws {
        try await withLiveServer { client in
            let yaml = try await client.send(.GET, "/missing", headers: [("Accept", "application/yaml")])
            #expect(yaml.status == 404)
            #expect(yaml.contentType == "application/yaml; charset=utf-8")
            #expect(yaml.text.contains("no such thing"))
            let xml = try await client.send(.GET, "/missing", headers: [("Accept", "application/xml")])
            #expect(xml.contentType == "application/problem+xml; charset=utf-8")
            let crash = try await client.send(.GET, "/crash")
            #expect(crash.status == 500)
            #expect(!crash.text.contains("CocoaLikeError"))
            let unrouted = try await client.send(.GET, "/nowhere", headers: [("Accept", "application/json")])
            #expect(unrouted.status == 404)
            #expect(unrouted.contentType == "application/problem+json; charset=utf-8")
        }
    }

    @Test func servesManyConcurrentRequests() async throws {
        try await withLiveServer { client in
            let accepts = ["application/json", "application/yaml", "application/xml", "application/msgpack", "text/csv",
                           "application/x-plist"]
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<120 {
                    let accept = accepts[index % accepts.count]
                    group.addTask {
                        let response = try await client.send(.GET, "/tree", headers: [("Accept", accept)])
                        let essence = response.contentType.flatMap { MediaType($0) }?.essence
                        return response.status == 200 && essence == accept
                    }
                }
                var passed = 0
                for try await ok in group where ok { passed += 1 }
                #expect(passed == 120)
            }
        }
    }
}

/// Gives the route another `Accept` and puts the client's back once the route is done, so what
/// answers a failure sees the client's field again: the problem must still be negotiated from
/// the `AcceptField` the failed reply was negotiated with.
struct AcceptForTheRoute: AsyncMiddleware {
    let accept: String

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let original = request.headers[.accept]
        request.headers.replaceOrAdd(name: .accept, value: accept)
        defer {
            request.headers.remove(name: .accept)
            for value in original { request.headers.add(name: .accept, value: value) }
        }
        return try await next.respond(to: request)
    }
}

@Suite struct ReplyAndProblemAcceptTests {
    @Test func aFailedReplysProblemIsNegotiatedFromTheSameAccept() async throws {
        let routes: (Application) throws -> Void = { app in
            // text/plain cannot hold an object and accepts nothing that can: 406.
            app.grouped(AcceptForTheRoute(accept: "text/plain")).get("object") { _ in Negotiated(["id": 7]) }
        }
        try await withLiveServer(routes: routes) { client in
            let response = try await client.send(.GET, "/object", headers: [("Accept", "application/xml")])
            #expect(response.status == 406)
            // From the client's application/xml it would be problem+xml; from the reply's
            // text/plain, the problem's plain-text form.
            #expect(response.contentType == "text/plain; charset=utf-8")
            #expect(response.text.contains("nothing acceptable for Accept 'text/plain'"))
            #expect(!response.text.contains("available: text/plain"))
        }
    }
}

extension Registry {
    /// Decodes a reply body the way a client would.
    func decode(body: [UInt8], contentType: String?) throws -> Value {
        guard let contentType, let type = MediaType(contentType), let match = decoder(for: type) else {
            throw ParleyError(.unsupportedMediaType, "cannot decode \(contentType ?? "nothing")")
        }
        return try match.decode(body, contentType: type)
    }
}
