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
