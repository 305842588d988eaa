import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Parley
import ParleyAsyncHTTPClient
import ParleyClient
import ParleyHTTP
import ParleyCompression
import Testing

@Suite struct AsyncHTTPClientTransportTests {
    struct User: Decodable, Equatable { var id: Int; var name: String; var tags: [String] }

    @Test func clientDecodesJSONReplyThroughTheTransport() async throws {
        let seen = Shared<[TestServer.Request]>([])
        let user = try await TestServer.run(handler: { request, writer in
            seen.update { $0.append(request) }
            try await writer.respond(headers: [("Content-Type", "application/json; charset=utf-8")],
                                     body: Array(#"{"id":7,"name":"Ada","tags":["a","b"]}"#.utf8))
        }) { port in
            let client = Client(baseURL: URL(string: "http://127.0.0.1:\(port)/v1/"),
                                transport: AsyncHTTPClientTransport(), registry: .linked)
            return try await client.get("users/7", as: User.self).value
        }
        #expect(user == User(id: 7, name: "Ada", tags: ["a", "b"]))
        let request = try #require(seen.value.first)
        #expect(request.head.method == .GET)
        #expect(request.head.uri == "/v1/users/7")
        #expect(request.head.headers["accept"].first?.contains("application/json") == true)
    }

    @Test func requestArrivesAsSent() async throws {
        let seen = Shared<TestServer.Request?>(nil)
        let body = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let (response, replyBody) = try await TestServer.run(handler: { request, writer in
            seen.value = request
            try await writer.respond(.created,
                                     headers: [("Set-Cookie", "a=1"), ("X-Order", "1"), ("Set-Cookie", "b=2")],
                                     body: Array("made".utf8))
        }) { port in
            var fields = HTTPFields()
            fields.append(HTTPField(name: .contentType, value: "application/octet-stream"))
            fields.append(HTTPField(name: HTTPField.Name("X-Trace")!, value: "first"))
            fields.append(HTTPField(name: HTTPField.Name("X-Other")!, value: "x"))
            fields.append(HTTPField(name: HTTPField.Name("X-Trace")!, value: "second"))
            fields.append(HTTPField(name: HTTPField.Name("Host")!, value: "elsewhere.example"))   // the authority wins
            let request = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1:\(port)",
                                      path: "/items/7?x=1&y=%20a&x=2", headerFields: fields)
            return try await AsyncHTTPClientTransport().send(request, body: .bytes(body))
        }
        let request = try #require(seen.value)
        #expect(request.head.method == .POST)
        #expect(request.head.uri == "/items/7?x=1&y=%20a&x=2")
        #expect(request.head.headers["x-trace"] == ["first", "second"])
        #expect(request.head.headers["x-other"] == ["x"])
        #expect(request.head.headers["content-type"] == ["application/octet-stream"])
        #expect(request.head.headers["host"].count == 1)
        #expect(request.head.headers["host"].first?.hasPrefix("127.0.0.1:") == true)
        #expect(request.head.headers["content-length"] == ["1000"])
        #expect(request.body == body)

        #expect(response.status == .created)
        #expect(replyBody == Array("made".utf8))
        let fields = response.headerFields.filter { $0.name == .setCookie || $0.name.rawName.lowercased() == "x-order" }
        #expect(fields.map(\.value) == ["a=1", "1", "b=2"])
    }

    @Test func multipartBodyIsSentWithItsLength() async throws {
        var form = MultipartFormData()
        form.append(name: "name", value: "Ada")
        form.append(name: "file", bytes: Array(repeating: 0x5A, count: 200_000), filename: "data.bin")
        let expected = try form.encodedBytes()
        let seen = Shared<TestServer.Request?>(nil)
        try await TestServer.run(handler: { request, writer in
            seen.value = request
            try await writer.respond(.noContent)
        }) { [form] port in
            let request = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1:\(port)", path: "/upload",
                                      headerFields: [.contentType: "multipart/form-data; boundary=\(form.boundary)"])
            _ = try await AsyncHTTPClientTransport().send(request, body: .multipart(form))
        }
        let request = try #require(seen.value)
        #expect(request.head.headers["content-length"] == [String(expected.count)])
        #expect(request.body == expected)
    }

    @Test func codedBodiesArriveAsSentAndTheClientUndoesThem() async throws {
        let json = Array(#"{"id":1,"name":"Zip","tags":[]}"#.utf8)
        let gzip = Compressor().compress(json, coding: .gzip)
        try await TestServer.run(handler: { _, writer in
            try await writer.respond(headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                                     body: gzip)
        }) { port in
            let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/")
            let (response, body) = try await AsyncHTTPClientTransport().send(request, body: nil)
            #expect(body == gzip)
            #expect(response.headerFields[.contentEncoding] == "gzip")
            // The client's pipeline undoes it; with HTTPClient.shared (which decompresses and keeps
            // the fields), the pipeline sees the body is no longer gzip and decodes it as it is.
            for transport in [AsyncHTTPClientTransport(), AsyncHTTPClientTransport(client: .shared)] {
                let client = Client(baseURL: URL(string: "http://127.0.0.1:\(port)/"), transport: transport,
                                    registry: .linked)
                #expect(try await client.get("u", as: User.self).value == User(id: 1, name: "Zip", tags: []))
            }
        }
    }

    @Test func redirectsAreReturnedNotFollowed() async throws {
        let status = try await TestServer.run(handler: { _, writer in
            try await writer.respond(.found, headers: [("Location", "/elsewhere")])
        }) { port in
            let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/old")
            return try await AsyncHTTPClientTransport().send(request, body: nil).0.status
        }
        #expect(status == .found)
    }
}
