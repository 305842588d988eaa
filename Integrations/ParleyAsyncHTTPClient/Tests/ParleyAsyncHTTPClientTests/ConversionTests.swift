import AsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOHTTP1
import ParleyAsyncHTTPClient
import Testing

@Suite struct ConversionTests {
    @Test func requestBecomesAURLWithEveryFieldButHost() throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .accept, value: "application/json"))
        fields.append(HTTPField(name: HTTPField.Name("Host")!, value: "ignored.example"))
        fields.append(HTTPField(name: HTTPField.Name("X-Repeat")!, value: "1"))
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: HTTPField.Name("X-Repeat")!, value: "2"))
        let request = HTTPRequest(method: .patch, scheme: "https", authority: "api.example.org:8443",
                                  path: "/v1/items?sort=name&q=%C3%A9", headerFields: fields)
        let converted = try HTTPClientRequest(request)
        #expect(converted.url == "https://api.example.org:8443/v1/items?sort=name&q=%C3%A9")
        #expect(converted.method == .PATCH)
        #expect(converted.headers.map(\.name) == ["Accept", "X-Repeat", "Cookie", "X-Repeat"])
        #expect(converted.headers["x-repeat"] == ["1", "2"])
        #expect(converted.body == nil)

        let back = try #require(HTTPRequest(converted))
        #expect(back.method == .patch)
        #expect(back.scheme == "https")
        #expect(back.authority == "api.example.org:8443")
        #expect(back.path == "/v1/items?sort=name&q=%C3%A9")
        #expect(back.headerFields == HTTPFields(fields.filter { $0.name.canonicalName != "host" }))
    }

    @Test func emptyPathIsTheRoot() throws {
        let request = HTTPRequest(method: .get, scheme: "HTTP", authority: "example.org", path: nil)
        #expect(try HTTPClientRequest(request).url == "http://example.org/")
        var client = HTTPClientRequest(url: "http://example.org?x=1#frag")
        client.method = .HEAD
        let back = try #require(HTTPRequest(client))
        #expect(back.path == "/?x=1")
        #expect(back.method == .head)
        #expect(HTTPRequest(HTTPClientRequest(url: "/relative")) == nil)
    }

    @Test func customMethodsPass() throws {
        let request = HTTPRequest(method: HTTPRequest.Method("PURGE")!, scheme: "http", authority: "example.org",
                                  path: "/")
        #expect(try HTTPClientRequest(request).method == .RAW(value: "PURGE"))
    }

    @Test func fieldsKeepOrderAndRepeatsBothWays() {
        let headers = HTTPHeaders([("Set-Cookie", "a"), ("Vary", "Accept"), ("Set-Cookie", "b")])
        let fields = HTTPFields(headers)
        #expect(fields.map(\.name.rawName) == ["Set-Cookie", "Vary", "Set-Cookie"])
        #expect(fields.map(\.value) == ["a", "Accept", "b"])
        #expect(Array(HTTPHeaders(fields).map { "\($0.name): \($0.value)" })
                == ["Set-Cookie: a", "Vary: Accept", "Set-Cookie: b"])
    }
}
