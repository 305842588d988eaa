import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
@testable import ParleyGateway
import Testing

/// The gateway's HTTP/1.1 response codec writes what NIO's pipeline (`configureHTTPServerPipeline`
/// and the conversion to NIO's types) writes for the same response parts to the same requests,
/// byte for byte, and fails the writes it fails.
@Suite(.timeLimit(.minutes(2))) struct HTTPTypesServerCodecTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        /// The requests the connection reads first (their bytes).
        var requests: String = "GET /orders HTTP/1.1\r\nHost: a\r\n\r\n"
        /// The responses written, each its head, body parts and trailers.
        var responses: [Response]
    }

    struct Response: Sendable {
        var head: HTTPResponse
        var body: [String] = []
        var trailers: HTTPFields?
    }

    @Test(arguments: HTTPTypesServerCodecTests.cases)
    func theBytesAreThoseOfNIOsEncoder(_ exchange: Case) throws {
        let nio = EmbeddedChannel()
        try nio.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: false,
                                                                    withServerUpgrade: ([], { _ in }),
                                                                    withErrorHandling: false,
                                                                    withOutboundHeaderValidation: false)
        try nio.pipeline.syncOperations.addHandler(HTTPTypesStreamCodec())
        let gateway = EmbeddedChannel()
        try ConnectionPipeline.addHTTP1Codec(to: gateway.pipeline.syncOperations, upgrade: nil,
                                             limits: .init())
        let expected = try written(exchange, on: nio)
        let actual = try written(exchange, on: gateway)
        #expect(expected.bytes.starts(with: "HTTP/1.1 ".utf8))
        #expect(String(decoding: actual.bytes, as: UTF8.self) == String(decoding: expected.bytes, as: UTF8.self))
        #expect(actual.errors == expected.errors)
        #expect(actual.requests == expected.requests)
    }

    /// The bytes a channel writes for the exchange's responses, the errors each write raised, and
    /// the request heads it read.
    private func written(_ exchange: Case, on channel: EmbeddedChannel) throws
        -> (bytes: [UInt8], errors: [String], requests: [String]) {
        try channel.writeInbound(ByteBuffer(string: exchange.requests))
        var requests: [String] = []
        while let part = try channel.readInbound(as: HTTPRequestPart.self) {
            if case .head(let head) = part { requests.append("\(head.method) \(head.path ?? "")") }
        }
        var errors: [String] = []
        for response in exchange.responses {
            var parts = [HTTPResponsePart.head(response.head)]
            parts += response.body.map { .body(ByteBuffer(string: $0)) }
            parts.append(.end(response.trailers))
            for part in parts {
                let written = channel.write(part)
                channel.flush()
                do { try written.wait() } catch { errors.append("\(error)") }
            }
        }
        var bytes: [UInt8] = []
        while let buffer = try channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = buffer { bytes += buffer.readableBytesView }
        }
        _ = try? channel.finish()
        return (bytes, errors, requests)
    }

    static let cases: [Case] = {
        var many: HTTPFields = [.contentType: "application/json", .contentLength: "2"]
        for index in 0..<40 { many.append(HTTPField(name: HTTPField.Name("X-Field-\(index)")!, value: "v\(index)")) }
        many.append(HTTPField(name: .setCookie, value: "a=1"))
        many.append(HTTPField(name: .setCookie, value: "b=2"))
        var mixedCase = HTTPFields()
        mixedCase.append(HTTPField(name: HTTPField.Name("Content-LENGTH")!, value: "3"))
        mixedCase.append(HTTPField(name: HTTPField.Name("Transfer-Encoding")!, value: "chunked"))
        func response(_ status: HTTPResponse.Status, _ fields: HTTPFields, body: [String] = [],
                      trailers: HTTPFields? = nil) -> Response {
            Response(head: HTTPResponse(status: status, headerFields: fields), body: body, trailers: trailers)
        }
        let json: HTTPFields = [.contentType: "application/json", .contentLength: "7"]
        return [
            Case(testDescription: "200 with Content-Length", responses: [response(.ok, json, body: ["{\"a\":1}"])]),
            Case(testDescription: "200 with no framing: chunked",
                 responses: [response(.ok, [.contentType: "text/plain"], body: ["abc", "", "defgh"])]),
            Case(testDescription: "200 chunked with trailers",
                 responses: [response(.ok, [.transferEncoding: "chunked"], body: ["x"],
                                      trailers: [HTTPField.Name("X-Checksum")!: "1"])]),
            Case(testDescription: "200 with Content-Length and trailers (dropped)",
                 responses: [response(.ok, [.contentLength: "1"], body: ["x"],
                                      trailers: [HTTPField.Name("X-Checksum")!: "1"])]),
            Case(testDescription: "both framing fields, any case",
                 responses: [response(.ok, mixedCase, body: ["abc"])]),
            Case(testDescription: "many fields", responses: [response(.ok, many, body: ["{}"])]),
            Case(testDescription: "204 drops its framing fields",
                 responses: [response(.noContent, [.contentLength: "0", .transferEncoding: "chunked"])]),
            Case(testDescription: "304 drops its framing fields",
                 responses: [response(.notModified, [.contentLength: "7", .eTag: "\"x\""])]),
            Case(testDescription: "HEAD keeps the framing and drops the body",
                 requests: "HEAD /orders HTTP/1.1\r\nHost: a\r\n\r\n",
                 responses: [response(.ok, json, body: ["{\"a\":1}"])]),
            Case(testDescription: "HEAD with no framing is not chunked",
                 requests: "HEAD / HTTP/1.1\r\nHost: a\r\n\r\n",
                 responses: [response(.ok, [:])]),
            Case(testDescription: "CONNECT answered 405 without framing",
                 requests: "CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n",
                 responses: [response(.methodNotAllowed, [.contentLength: "3"], body: ["no!"])]),
            Case(testDescription: "Connection: close",
                 responses: [response(.badGateway, [.connection: "close", .contentLength: "0"])]),
            Case(testDescription: "100 Continue, then the answer",
                 requests: "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
                 responses: [response(.continue, [:]), response(.created, [.contentLength: "2"], body: ["ok"])]),
            Case(testDescription: "a custom status and a known one with its own phrase",
                 requests: "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n",
                 responses: [response(HTTPResponse.Status(code: 299, reasonPhrase: "Fine"), [.contentLength: "0"]),
                             response(HTTPResponse.Status(code: 200, reasonPhrase: "Fine"), [.contentLength: "0"])]),
            Case(testDescription: "pipelined GET then HEAD",
                 requests: "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nHEAD /2 HTTP/1.1\r\nHost: a\r\n\r\n",
                 responses: [response(.ok, [.contentLength: "1"], body: ["a"]),
                             response(.ok, [.contentLength: "1"], body: ["b"])]),
            Case(testDescription: "an answer before any request (a 408)", requests: "",
                 responses: [response(.requestTimeout, [.connection: "close", .contentLength: "0"])]),
        ] + [100, 101, 103, 200, 201, 206, 301, 404, 418, 425, 451, 500, 503, 599, 999].map { code in
            Case(testDescription: "status \(code)",
                 responses: [response(HTTPResponse.Status(code: code), [.contentLength: "1"], body: ["z"])])
        }
    }()
}
