import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import Parley
@testable import ParleyGateway
import Testing

/// A passed-through answer's head is written to an HTTP/1.1 client from the field lines the
/// upstream decoder wrote as it read the head (``ForwardedFieldLines``): the bytes are those its
/// end-to-end fields would be written as, hop-by-hop fields dropped by the same rule, framing
/// fields as the codec frames the answer.
@Suite(.timeLimit(.minutes(1))) struct ForwardedFieldLinesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        /// The upstream's response head (and any body), as bytes.
        var response: [UInt8]
        /// The client's request method.
        var method = "GET"
    }

    @Test(arguments: ForwardedFieldLinesTests.cases)
    func linesAreWrittenAsTheirEndToEndFieldsWouldBe(_ exchange: Case) throws {
        let (received, decodedLines) = try Self.decode(exchange.response, bodyless: exchange.method == "HEAD")
        let lines = try #require(decodedLines)
        // An answer with a `Vary` of its own that `Accept` is joined to is written from its fields.
        for varies in lines.hasVary ? [false] : [false, true] {
            for closes in [false, true] {
                var fields = ForwardedFields.endToEnd(received.headerFields)
                if varies { Transcoder.varyOnAccept(&fields) }
                if closes { fields[.connection] = "close" }
                var fromFields = received
                fromFields.headerFields = fields
                let expected = try Self.written(fromFields, lines: nil, method: exchange.method)
                let added = ForwardedFields.added(varyingOnAccept: varies, closing: closes)
                let fromLines = HTTPResponse(status: received.status, headerFields: added)
                let actual = try Self.written(fromLines, lines: lines, method: exchange.method)
                #expect(expected.starts(with: "HTTP/1.1 ".utf8))
                #expect(String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
                        "varies: \(varies), closes: \(closes)")
                #expect(actual == expected)
            }
        }
    }

    /// A transcoded answer written from the lines (``ForwardedFieldLines/transcodedBody``) and the
    /// fields that follow them is what ``Transcoder`` makes of the end-to-end head, byte for byte.
    @Test(arguments: ForwardedFieldLinesTests.transcodedCases)
    func transcodedAnswersAreWrittenAsTheirEndToEndFieldsWouldBe(_ response: String) throws {
        let (received, decodedLines) = try Self.decode(Array(response.utf8))
        var lines = try #require(decodedLines)
        #expect(lines.standForTranscodedAnswer)
        lines.transcodedBody = true
        let transcoder = Transcoder(registry: .linked, transcodeLimits: [1 << 20])
        let accept = AcceptField("application/msgpack")
        let plan = transcoder.transcodePlan(from: try MediaType(parsing: "application/json"),
                                            to: try #require(transcoder.registry.encoder(for: accept)))
        let request = HTTPRequest(method: .get, scheme: "http", authority: "a", path: "/value")
        let body = Array(#"{"a":1}"#.utf8)
        var endToEnd = received
        endToEnd.headerFields = ForwardedFields.endToEnd(received.headerFields)
        let (fromFields, _) = try transcoder.transcode(endToEnd, body: body, for: request, as: plan,
                                                       accepting: accept, limit: 1 << 20)
        let value = try transcoder.decode(received, body: body, for: request, limit: 1 << 20)
        let like = HTTPResponse(status: received.status,
                                headerFields: ForwardedFields.added(varyingOnAccept: false, closing: false))
        let (fromLines, _) = try transcoder.encode(value, like: like, for: request, as: plan, accepting: accept,
                                                   limit: 1 << 20)
        let expected = try Self.written(fromFields, lines: nil, method: "GET")
        let actual = try Self.written(fromLines, lines: lines, method: "GET")
        #expect(String(decoding: expected, as: UTF8.self).contains("application/msgpack"))
        #expect(String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    static let transcodedCases = [
        "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Type: application/json\r\nContent-Length: 7\r\n"
            + "Last-Modified: Tue, 01 Dec 2026 17:00:00 GMT\r\nConnection: keep-alive\r\nETag: \"6750-7\"\r\n"
            + "Accept-Ranges: bytes\r\n\r\n",
        "HTTP/1.1 201 Made\r\nKeep-Alive: timeout=5\r\nContent-MD5: x\r\nDigest: sha-256=x\r\netag: W/\"v2\"\r\n"
            + "Content-Digest: sha-256=:x:\r\nRepr-Digest: sha-256=:x:\r\nCache-Control: max-age=60\r\n"
            + "Content-Range: bytes 0-6/7\r\ncontent-type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n",
    ]

    @Test func aVaryOrSeveralETagsAreLeftToTheFields() throws {
        let varying = "HTTP/1.1 200 OK\r\nVary: Origin\r\nContent-Length: 0\r\n\r\n"
        #expect(try #require(try Self.decode(Array(varying.utf8)).lines).standForTranscodedAnswer == false)
        let tagged = "HTTP/1.1 200 OK\r\nETag: \"a\"\r\nETag: \"b\"\r\nContent-Length: 0\r\n\r\n"
        #expect(try #require(try Self.decode(Array(tagged.utf8)).lines).standForTranscodedAnswer == false)
    }

    @Test func aConnectionFieldNamingAnotherFieldLeavesNoLines() throws {
        let named = "HTTP/1.1 200 OK\r\nX-Private: 1\r\nConnection: close, X-Private\r\nContent-Length: 0\r\n\r\n"
        #expect(try Self.decode(Array(named.utf8)).lines == nil)
        let closing = "HTTP/1.1 200 OK\r\nConnection: Keep-Alive, CLOSE\r\nContent-Length: 0\r\n\r\n"
        let lines = try #require(try Self.decode(Array(closing.utf8)).lines)
        #expect(lines.connectionCloses)
        #expect(String(decoding: lines.bytes, as: UTF8.self) == "Content-Length: 0\r\n")
        let keeping = "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nVary: Origin\r\nContent-Length: 0\r\n\r\n"
        let kept = try #require(try Self.decode(Array(keeping.utf8)).lines)
        #expect(!kept.connectionCloses)
        #expect(kept.hasVary)
    }

    /// An exchange that cannot forward lines (an HTTP/2 client's, a checked one's) has none written.
    @Test func linesAreWrittenOnlyForTheRequestsThatAskForThem() throws {
        let answer = "HTTP/1.1 200 OK\r\nX-A: 1\r\nContent-Length: 0\r\n\r\n"
        var decoder = UpstreamResponseDecoder()
        decoder.expectResponse(to: .other, writingFieldLines: false)
        decoder.expectResponse(to: .other)
        decoder.receive(ByteBuffer(string: answer + answer))
        var lines: [String?] = []
        while let part = try decoder.next() {
            if case .head = part { lines.append(decoder.fieldLines.map { String(decoding: $0.bytes, as: UTF8.self) }) }
        }
        #expect(lines == [nil, "X-A: 1\r\nContent-Length: 0\r\n"])
    }

    @Test func aTrailerIsNotALineAndAnInterimHeadLeavesNone() throws {
        let response = "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n2\r\n{}\r\n0\r\nX-Trailer: t\r\n\r\n"
        var decoder = UpstreamResponseDecoder()
        decoder.expectResponse(to: .other)
        decoder.receive(ByteBuffer(string: response))
        guard case .head(let head) = try decoder.next() else { Issue.record("no head"); return }
        #expect(head.status == .ok)
        #expect(decoder.fieldLines.map { String(decoding: $0.bytes, as: UTF8.self) } == "X-A: 1\r\n")
        while let part = try decoder.next() {
            if case .end = part { break }
        }
        #expect(decoder.fieldLines.map { String(decoding: $0.bytes, as: UTF8.self) } == "X-A: 1\r\n")
    }

    /// The head decoded from `bytes`, and the field lines the decoder wrote for it.
    private static func decode(_ bytes: [UInt8], bodyless: Bool = false) throws
        -> (head: HTTPResponse, lines: ForwardedFieldLines?) {
        var decoder = UpstreamResponseDecoder()
        decoder.expectResponse(to: bodyless ? .bodyless : .other)
        decoder.receive(ByteBuffer(bytes: bytes))
        guard case .head(let head) = try decoder.next() else { throw DecodedNoHead() }
        return (head, decoder.fieldLines)
    }

    private struct DecodedNoHead: Error {}

    /// The bytes an HTTP/1.1 client connection's codec writes for `head` (with `lines` handed to
    /// it) and an empty body's end, in answer to a `method` request.
    private static func written(_ head: HTTPResponse, lines: ForwardedFieldLines?, method: String) throws -> [UInt8] {
        let channel = EmbeddedChannel()
        let memory = ConnectionMemory()
        try ConnectionPipeline.addHTTP1Codec(to: channel.pipeline.syncOperations, upgrade: nil, limits: .init(),
                                             memory: memory)
        try channel.writeInbound(ByteBuffer(string: "\(method) /orders HTTP/1.1\r\nHost: a\r\n\r\n"))
        while try channel.readInbound(as: HTTPRequestPart.self) != nil {}
        memory.forwardedFieldLines = lines
        try channel.writeAndFlush(HTTPResponsePart.head(head)).wait()
        try channel.writeAndFlush(HTTPResponsePart.end(nil)).wait()
        #expect(memory.forwardedFieldLines == nil)
        var bytes: [UInt8] = []
        while let data = try channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = data { bytes += buffer.readableBytesView }
        }
        _ = try? channel.finish()
        return bytes
    }

    static let cases: [Case] = [
        Case(testDescription: "nginx's answer", response: Array((
            "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Tue, 01 Dec 2026 18:00:00 GMT\r\n"
                + "Content-Type: application/json\r\nContent-Length: 2\r\n"
                + "Last-Modified: Tue, 01 Dec 2026 17:00:00 GMT\r\nConnection: keep-alive\r\n"
                + "ETag: \"6750-2\"\r\nAccept-Ranges: bytes\r\n\r\n{}").utf8)),
        Case(testDescription: "hop-by-hop fields, spaces, case and repeats", response: Array((
            "HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5\r\nx-a:   spaced value \t\r\nTE: trailers\r\nTrailer: X-T\r\n"
                + "Upgrade: h2c\r\nProxy-Authenticate: Basic\r\nPROXY-CONNECTION: keep-alive\r\nSet-Cookie: a=1\r\n"
                + "Set-Cookie: b=2\r\nX-Empty:\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").utf8)),
        Case(testDescription: "a value that is not UTF-8", response: Array(
            "HTTP/1.1 200 OK\r\nX-Bytes: caf".utf8) + [0xE9, 0xFF] + Array("\r\nContent-Length: 0\r\n\r\n".utf8)),
        Case(testDescription: "a response's Host fields", response: Array(
            "HTTP/1.1 200 OK\r\nHost: upstream\r\nHost: second\r\nContent-Length: 0\r\n\r\n".utf8)),
        Case(testDescription: "204 with a length", response: Array(
            "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nX-A: b\r\n\r\n".utf8)),
        Case(testDescription: "304", response: Array(
            "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\nContent-Length: 10\r\n\r\n".utf8)),
        Case(testDescription: "the answer to HEAD", response: Array(
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\n".utf8), method: "HEAD"),
        Case(testDescription: "a body read until the connection closes, from HTTP/1.0", response: Array(
            "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nVary: Origin\r\n\r\nabc".utf8)),
        Case(testDescription: "an unknown status", response: Array(
            "HTTP/1.1 299 Whatever\r\nContent-Length: 0\r\n\r\n".utf8)),
    ]
}
