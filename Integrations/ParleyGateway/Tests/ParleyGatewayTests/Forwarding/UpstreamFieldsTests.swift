import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
@testable import ParleyGateway
import Testing

/// The fields a request carries upstream (``UpstreamFields``) follow one rule, whether they are
/// made into a field list or written by the HTTP/1.1 codec straight into the head's bytes: both
/// ways write the same bytes.
@Suite(.timeLimit(.minutes(1))) struct UpstreamFieldsTests {
    static let accept = HTTPField(name: .accept, value: "application/json, application/yaml;q=0.9")
    static let forwarded = HTTPField.Name("Forwarded")!

    /// Client heads as the policy admits them.
    static let admittedHeads: [(String, HTTPFields)] = {
        var h2load: HTTPFields = [.userAgent: "h2load nghttp2/1.52.0", .accept: "application/json"]
        h2load.append(HTTPField(name: forwarded, value: #"for=127.0.0.1;host="a:1";proto=http"#))
        h2load.append(HTTPField(name: HTTPField.Name("X-Forwarded-For")!, value: "127.0.0.1"))
        var hopByHop: HTTPFields = [.connection: "keep-alive, X-Trace", .accept: "text/html",
                                    .te: "trailers", .contentLength: "5", .expect: "100-continue"]
        hopByHop.append(HTTPField(name: HTTPField.Name("X-Trace")!, value: "1"))
        hopByHop.append(HTTPField(name: .accept, value: "*/*"))
        hopByHop.append(HTTPField(name: .via, value: "1.0 other"))
        hopByHop.append(HTTPField(name: HTTPField.Name("keep-alive")!, value: "timeout=5"))
        var cookies: HTTPFields = [.cookie: "a=1", .contentType: "application/json"]
        cookies.append(HTTPField(name: .cookie, value: "b=2"))
        cookies.append(HTTPField(name: .transferEncoding, value: "chunked"))
        var notUTF8 = HTTPFields()
        notUTF8.append(HTTPField(name: HTTPField.Name("X-Raw")!, lenientValue: [0x61, 0xFF, 0xFE, 0x62]))
        var control = HTTPFields()
        control.append(HTTPField(name: HTTPField.Name("X-Bad")!, lenientValue: Array("a\u{1}b".utf8)))
        return [("h2load's, forwarded", h2load), ("hop-by-hop and repeated Accept", hopByHop),
                ("two cookies, chunked", cookies), ("a value not UTF-8", notUTF8),
                ("a control character", control), ("no fields", [:])]
    }()

    @Test(arguments: admittedHeads.indices)
    func theCodecWritesTheFieldsAsTheListOfThemIsWritten(index: Int) throws {
        let (name, admitted) = Self.admittedHeads[index]
        for method in [HTTPRequest.Method.get, .post, .head, .trace] {
            for accept in [nil, Self.accept] {
                for framing in [UpstreamFields.Framing.unframed, .length("12"), .chunked] {
                    let fields = UpstreamFields(admitted: admitted, accept: accept, framing: framing)
                    let request = HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1:8080",
                                              path: "/orders?page=2")
                    var listed = request
                    fields.write(into: &listed.headerFields)
                    let expected = try Self.written(listed, fields: nil)
                    let actual = try Self.written(request, fields: fields)
                    #expect(String(decoding: actual.bytes, as: UTF8.self)
                            == String(decoding: expected.bytes, as: UTF8.self),
                            "\(name), \(method), accept: \(accept != nil), \(framing)")
                    #expect(actual.bytes == expected.bytes)
                    #expect(actual.error == expected.error)
                    if name == "a control character" { #expect(actual.error != nil) }
                }
            }
        }
    }

    /// Client heads as they arrive, and whether their field lines stand for them once admitted from
    /// a known address (the policy keeps their fields as they came).
    static let clientHeads: [(name: String, head: [UInt8], hasLines: Bool)] = [
        ("h2load's", "User-Agent: h2load nghttp2/1.52.0\r\nAccept: application/json\r\n", true),
        ("a browser's",
         "Connection: keep-alive\r\nAccept: text/html\r\naccept-encoding: gzip\r\nCookie: a=1\r\n", true),
        ("hop-by-hop, repeated Accept, Expect, a length",
         "TE: trailers\r\nAccept: text/html\r\nExpect: 100-continue\r\nContent-Length: 0\r\nVia: 1.0 other\r\n"
            + "Keep-Alive: timeout=5\r\naccept: */*\r\nUpgrade: websocket\r\nProxy-Authorization: x\r\n", true),
        ("no Accept", "X-Id: 7\r\n", true),
        ("names' case, spaces around values", "x-ID:   7  \r\nACCEPT:text/plain\r\nDate:\tnow\r\n", true),
        ("no fields but Host", "", true),
        ("Connection naming a field not sent", "Connection: close, X-Other\r\nX-Id: 7\r\n", true),
        ("two cookies", "Cookie: a=1\r\nAccept: */*\r\nCookie: b=2\r\n", false),
        ("Connection naming a field", "Connection: X-Trace\r\nX-Trace: 1\r\nX-Id: 7\r\n", false),
        ("a name with an underscore", "X_User: a\r\nX-Id: 7\r\n", false),
        ("a proxy field", "X-Forwarded-For: 10.0.0.1\r\nX-Id: 7\r\n", false),
    ].map { name, fields, hasLines in
        (name, Array("GET /orders HTTP/1.1\r\nHost: a.example:8080\r\n\(fields)\r\n".utf8), hasLines)
    } + [("a value not UTF-8",
          Array("GET / HTTP/1.1\r\nHost: a\r\nX-Raw: a".utf8) + [0xFF, 0xFE] + Array("b\r\n\r\n".utf8), true)]

    /// A request read over HTTP/1.1 goes upstream from its field lines (``ClientFieldLines``) as the
    /// same bytes as from its admitted fields, with the client's address known or not; a head the
    /// policy changes has none.
    @Test(arguments: clientHeads.indices)
    func theCodecWritesTheClientsLinesAsItsAdmittedFieldsAreWritten(index: Int) throws {
        let (name, bytes, hasLines) = Self.clientHeads[index]
        for client in ["192.0.2.7", "2001:db8::7", nil] {
            var decoder = ClientRequestDecoder(limits: ClientRequestDecoderTests.limits)
            decoder.receive(ByteBuffer(bytes: bytes))
            guard case .head(let head) = try decoder.next() else {
                Issue.record("\(name): no head")
                return
            }
            var lines = decoder.fieldLines
            var last = RequestHeadPolicy.LastHead()
            let admitted = try RequestHeadPolicy().admit(head, from: client, last: &last, lines: &lines)
            // Without the client's address the policy adds no proxy fields and keeps the client's.
            let expected = hasLines || (client == nil && name == "a proxy field")
            #expect((lines != nil) == expected, "\(name), client \(client ?? "unknown")")
            guard let lines else { continue }
            #expect((admitted.appended != nil) == (client != nil))
            for method in [HTTPRequest.Method.get, .post, .head, .trace] {
                for accept in [nil, Self.accept] {
                    for framing in [UpstreamFields.Framing.unframed, .length("12"), .chunked] {
                        let listed = UpstreamFields(admitted: admitted.head.headerFields, appended: admitted.appended,
                                                    accept: accept, framing: framing)
                        var fromLines = listed
                        fromLines.clientLines = lines
                        let request = HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1:8080",
                                                  path: "/orders?page=2")
                        let expected = try Self.written(request, fields: listed)
                        let actual = try Self.written(request, fields: fromLines)
                        let label = "\(name), client \(client ?? "unknown"), \(method), accept: \(accept != nil)"
                        #expect(String(decoding: actual.bytes, as: UTF8.self)
                                == String(decoding: expected.bytes, as: UTF8.self), "\(label), \(framing)")
                        #expect(actual.bytes == expected.bytes)
                        #expect(actual.error == nil && expected.error == nil)
                    }
                }
            }
        }
    }

    @Test func theRuleDropsHopByHopExpectAndLengthAndPlacesAccept() {
        let admitted = Self.admittedHeads[1].1
        var made: HTTPFields = [.server: "left over", .date: "from", .age: "the last request", .allow: "!"]
        made.append(HTTPField(name: .cookie, value: "c=3"))
        UpstreamFields(admitted: admitted, accept: Self.accept, framing: .length("12")).write(into: &made)
        #expect(made.map(\.description) == [
            "Accept: application/json, application/yaml;q=0.9", "Via: 1.0 other", "Via: 1.1 parley-gateway",
            "Content-Length: 12",
        ])
        // With no `Accept` for the upstream, the client's are dropped; one the client did not send comes after `Via`.
        UpstreamFields(admitted: admitted, accept: nil, framing: .chunked).write(into: &made)
        #expect(made.map(\.description) == ["Via: 1.0 other", "Via: 1.1 parley-gateway", "Transfer-Encoding: chunked"])
        UpstreamFields(admitted: [.userAgent: "x"], accept: Self.accept, framing: .unframed).write(into: &made)
        #expect(made.map(\.description) == [
            "User-Agent: x", "Via: 1.1 parley-gateway", "Accept: application/json, application/yaml;q=0.9",
        ])
    }

    /// The bytes the gateway's codec writes for `request`'s head (with `fields` in place of its
    /// own), and the error it raised.
    private static func written(_ request: HTTPRequest, fields: UpstreamFields?) throws
        -> (bytes: [UInt8], error: String?) {
        let channel = EmbeddedChannel()
        let codec = try UpstreamPool.configure(channel.pipeline.syncOperations)
        codec.nextHeadFields = fields
        var error: String?
        do { try channel.writeOutbound(HTTPRequestPart.head(request)) } catch let failure { error = "\(failure)" }
        var bytes: [UInt8] = []
        while let data = try channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = data { bytes += buffer.readableBytesView }
        }
        _ = try? channel.finish()
        return (bytes, error)
    }
}
