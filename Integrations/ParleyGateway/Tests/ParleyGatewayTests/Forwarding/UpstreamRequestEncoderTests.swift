import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
@testable import ParleyGateway
import Testing

/// The gateway's HTTP/1.1 upstream codec (``UpstreamHTTP1Codec``) writes what NIO's pipeline (`addHTTPClientHandlers()`
/// and the extras' `HTTP1ToHTTPClientCodec`) writes for the same request parts, byte for byte, and
/// refuses what it refuses.
@Suite(.timeLimit(.minutes(2))) struct UpstreamRequestEncoderTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var head: HTTPRequest
        var body: [String] = []
        var trailers: HTTPFields?
    }

    @Test(arguments: UpstreamRequestEncoderTests.cases)
    func theBytesAreThoseOfNIOsEncoder(_ request: Case) throws {
        let nio = EmbeddedChannel()
        try nio.pipeline.syncOperations.addHTTPClientHandlers()
        try nio.pipeline.syncOperations.addHandler(HTTP1ToHTTPClientCodec())
        let gateway = EmbeddedChannel()
        try UpstreamPool.configure(gateway.pipeline.syncOperations)
        let expected = written(request, on: nio)
        let actual = written(request, on: gateway)
        if expected.errors.isEmpty { #expect(expected.bytes.starts(with: request.head.method.rawValue.utf8)) }
        #expect(String(decoding: actual.bytes, as: UTF8.self) == String(decoding: expected.bytes, as: UTF8.self))
        #expect(actual.errors == expected.errors)
    }

    /// The bytes a channel writes for the request's parts, and the errors each write raised.
    private func written(_ request: Case, on channel: EmbeddedChannel) -> (bytes: [UInt8], errors: [String]) {
        var errors: [String] = []
        var parts = [HTTPRequestPart.head(request.head)]
        parts += request.body.map { .body(ByteBuffer(string: $0)) }
        parts.append(.end(request.trailers))
        for part in parts {
            do { try channel.writeOutbound(part) } catch { errors.append("\(error)") }
        }
        var bytes: [UInt8] = []
        while let buffer = try? channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = buffer { bytes += buffer.readableBytesView }
        }
        _ = try? channel.finish()
        return (bytes, errors)
    }

    static let cases: [Case] = {
        var forwarded: HTTPFields = [.userAgent: "h2load nghttp2/1.52.0", .accept: "application/json"]
        forwarded.append(HTTPField(name: HTTPField.Name("Forwarded")!, value: #"for=127.0.0.1;host="a:1";proto=http"#))
        forwarded.append(HTTPField(name: .via, value: "1.1 parley-gateway"))
        var cookies: HTTPFields = [.accept: "*/*"]
        cookies.append(HTTPField(name: .cookie, value: "a=1"))
        cookies.append(HTTPField(name: .cookie, value: "b=2"))
        // Joined as text, the bytes that are not UTF-8 become U+FFFD: the line outgrows the fields.
        var cookiesNotUTF8: HTTPFields = [.accept: "*/*"]
        cookiesNotUTF8.append(HTTPField(name: .cookie, value: "a=1"))
        let notUTF8 = Array("b=".utf8) + [UInt8](repeating: 0xFF, count: 400)
        cookiesNotUTF8.append(HTTPField(name: .cookie, lenientValue: notUTF8))
        var control = HTTPFields()
        control.append(HTTPField(name: HTTPField.Name("X-Bad")!, lenientValue: Array("a\u{1}b".utf8)))
        func request(_ method: HTTPRequest.Method, _ fields: HTTPFields, path: String = "/orders?page=2")
            -> HTTPRequest {
            HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1:8080", path: path, headerFields: fields)
        }
        return [
            Case(testDescription: "GET with the forwarded fields", head: request(.get, forwarded)),
            Case(testDescription: "GET with two Cookie fields", head: request(.get, cookies)),
            Case(testDescription: "GET with two Cookie fields, one not UTF-8", head: request(.get, cookiesNotUTF8)),
            Case(testDescription: "POST with Content-Length", head: request(.post, [.contentLength: "5"]),
                 body: ["hello"]),
            Case(testDescription: "POST chunked", head: request(.post, [.transferEncoding: "chunked"]),
                 body: ["abc", "", "defgh"]),
            Case(testDescription: "POST with no framing and no body", head: request(.post, [:])),
            Case(testDescription: "PUT with both framing fields",
                 head: request(.put, [.contentLength: "2", .transferEncoding: "chunked"]), body: ["ok"]),
            Case(testDescription: "DELETE chunked with trailers",
                 head: request(.delete, [.transferEncoding: "chunked"]), body: ["x"],
                 trailers: [HTTPField.Name("X-Checksum")!: "1"]),
            Case(testDescription: "GET with trailers and no chunking", head: request(.get, [:]),
                 trailers: [HTTPField.Name("X-Checksum")!: "1"]),
            Case(testDescription: "GET with Transfer-Encoding before Content-Length",
                 head: request(.get, [.transferEncoding: "chunked", .contentLength: "2"]), body: ["ok"]),
            Case(testDescription: "DELETE whose first Transfer-Encoding is not chunked",
                 head: request(.delete, [.transferEncoding: "gzip", .transferEncoding: "chunked"]), body: ["x"]),
            Case(testDescription: "TRACE with Content-Length", head: request(.trace, [.contentLength: "0"])),
            Case(testDescription: "a value with a control character", head: request(.get, control)),
            Case(testDescription: "a target with a space", head: request(.get, [:], path: "/a b")),
            Case(testDescription: "no authority", head: HTTPRequest(method: .get, scheme: "http", authority: nil,
                                                                    path: "/", headerFields: [:])),
        ]
    }()
}
