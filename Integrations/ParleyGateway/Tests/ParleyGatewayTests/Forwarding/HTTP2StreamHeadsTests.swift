import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP1
import NIOHTTP2
import NIOHTTPTypes
import NIOHTTPTypesHTTP2
@testable import ParleyGateway
import Testing

/// An HTTP/2 stream's heads as the gateway's stream pipeline makes them (swift-nio-extras' frame
/// codec, then ``HTTP2StreamHeads``): what reaches the guard is what an HTTP/1.1 request would be,
/// and what the stream writes is what HTTP/2 lets it send.
struct HTTP2StreamHeadsTests {
    private static func stream(maxBytes: Int = 16 * 1024, maxFields: Int = 100) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTPServerCodec())
        try channel.pipeline.syncOperations.addHandler(HTTP2StreamHeads(maxBytes: maxBytes, maxFields: maxFields))
        return channel
    }

    private static func headers(_ pairs: [(String, String)], endStream: Bool = true) -> HTTP2Frame.FramePayload {
        .headers(.init(headers: HPACKHeaders(pairs), endStream: endStream))
    }

    private static func requestHead(_ channel: EmbeddedChannel) throws -> HTTPRequest? {
        guard case .head(let request) = try channel.readInbound(as: HTTPRequestPart.self) else { return nil }
        return request
    }

    @Test func aRequestWithAuthorityKeepsItsFieldsAndIsPlainHTTP() throws {
        let channel = try Self.stream()
        try channel.writeInbound(Self.headers([(":method", "GET"), (":scheme", "https"), (":authority", "api.test"),
                                               (":path", "/a?b"), ("accept", "application/json")]))
        let request = try #require(try Self.requestHead(channel))
        #expect(request.method == .get)
        #expect(request.scheme == "http")
        #expect(request.authority == "api.test")
        #expect(request.path == "/a?b")
        #expect(request.headerFields == [.accept: "application/json"])
    }

    /// RFC 9113 §8.3.1 lets a request carry `Host` without `:authority`: its first `Host` is the
    /// authority, as HTTP/1.1's conversion takes it; a second one stays for the guard to refuse.
    @Test func withoutAuthorityTheFirstHostIsTheAuthority() throws {
        let channel = try Self.stream()
        try channel.writeInbound(Self.headers([(":method", "GET"), (":scheme", "http"), (":path", "/"),
                                               ("host", "one.test"), ("x-a", "1"), ("host", "two.test")]))
        let request = try #require(try Self.requestHead(channel))
        #expect(request.authority == "one.test")
        #expect(request.headerFields[values: HTTPField.Name("Host")!] == ["two.test"])
        #expect(request.headerFields[HTTPField.Name("X-A")!] == "1")
    }

    /// Over the byte or the field limit (`:authority` counted as HTTP/1.1's `Host`), the head is the
    /// decoder's `headerOverflow`, which the guard answers 431, and nothing of the request goes on.
    @Test(arguments: [(100, 100, false), (99, 100, true), (100, 2, false), (100, 1, true)])
    func aHeadOverTheLimitsIsAHeaderOverflow(maxBytes: Int, maxFields: Int, overflows: Bool) throws {
        // `host` + `a.test` (10 bytes) and `x-long` + 84 bytes (90): 100 bytes in 2 fields.
        let channel = try Self.stream(maxBytes: maxBytes, maxFields: maxFields)
        let head = Self.headers([(":method", "POST"), (":scheme", "http"), (":authority", "a.test"), (":path", "/"),
                                 ("x-long", String(repeating: "v", count: 84))], endStream: false)
        if overflows {
            #expect(throws: HTTPParserError.headerOverflow) { try channel.writeInbound(head) }
            try channel.writeInbound(HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(ByteBuffer(string: "x")))))
            #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)
        } else {
            try channel.writeInbound(head)
            #expect(try Self.requestHead(channel) != nil)
        }
    }

    /// `Connection: close` (which the proxy adds to an answer given before the request's end) and
    /// the other fields only a connection carries are left out: swift-nio-http2 refuses to send them.
    @Test func theFieldsOnlyAConnectionCarriesAreNotWritten() throws {
        let channel = try Self.stream()
        try channel.writeInbound(Self.headers([(":method", "GET"), (":scheme", "http"), (":authority", "a"),
                                               (":path", "/")]))
        _ = try channel.readInbound(as: HTTPRequestPart.self)
        let fields: HTTPFields = [.contentType: "text/plain", .connection: "close",
                                  HTTPField.Name("Keep-Alive")!: "timeout=5", .transferEncoding: "chunked",
                                  .upgrade: "h2c", .te: "trailers", .vary: "Accept"]
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok, headerFields: fields)))
        try channel.writeOutbound(HTTPResponsePart.end([.connection: "close", HTTPField.Name("X-Trailer")!: "1"]))
        guard case .headers(let head) = try channel.readOutbound(as: HTTP2Frame.FramePayload.self),
              case .headers(let trailers) = try channel.readOutbound(as: HTTP2Frame.FramePayload.self) else {
            Issue.record("no head and trailers written")
            return
        }
        #expect(head.headers.map(\.name) == [":status", "content-type", "vary"])
        #expect(trailers.headers.map(\.name) == ["x-trailer"])
        #expect(trailers.endStream)
    }
}
